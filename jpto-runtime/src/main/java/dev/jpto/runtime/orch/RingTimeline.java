package dev.jpto.runtime.orch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ring occupancy over a run, recorded with scope statistics and written beside them as
 * {@code scope_stats/ring_timeline.json}: per ring, heap bytes in use, live task-window slots and dep-pool entries
 * after each submit; scope begin/end marks; the point where the run stopped. Bounded: each ring keeps at most
 * {@link #MAX_POINTS} points; when full, neighbouring points merge pairwise keeping each maximum (so the peaks and
 * the high-water marks survive) and later points cover twice as many submits. At most {@link #MAX_MARKS} scope marks
 * are kept; the rest are counted.
 */
final class RingTimeline {
    static final String FILE = "ring_timeline.json";
    static final int MAX_POINTS = 2048;
    static final int MAX_MARKS = 2000;

    private final long t0 = System.nanoTime();
    private final Series[] rings = new Series[4];
    private final List<Map<String, Object>> marks = new ArrayList<>();
    private long droppedMarks;
    private Map<String, Object> stop;

    /** One submit on ring {@code ring}: what is in use right after it. */
    void occupancy(int ring, long heapUsed, long tasksLive, long depsUsed) {
        Series s = rings[ring];
        if (s == null) {
            s = new Series();
            rings[ring] = s;
        }
        s.add(micros(), heapUsed, tasksLive, depsUsed);
    }

    void mark(String phase, int depth, int ring, String site) {
        if (marks.size() >= MAX_MARKS) {
            droppedMarks++;
            return;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t_us", micros());
        m.put("phase", phase);
        m.put("depth", depth);
        m.put("ring", ring);
        m.put("site", site);
        marks.add(m);
    }

    /** Where the run stopped with {@code error}: the innermost open scope's ring and its occupancy then. */
    void stopped(int depth, int ring, long heapUsed, long tasksLive, long depsUsed, String error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t_us", micros());
        m.put("depth", depth);
        m.put("ring", ring);
        m.put("heap", heapUsed);
        m.put("tasks", tasksLive);
        m.put("deps", depsUsed);
        m.put("error", error);
        stop = m;
    }

    private double micros() {
        return (System.nanoTime() - t0) / 1000 / 1000.0;
    }

    /** The JSON document: {@code capacities} per ring as the header gives them, then the series and marks. */
    Map<String, Object> document(Map<String, Object> capacities) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("version", 1);
        d.put("max_points", MAX_POINTS);
        d.putAll(capacities);
        List<Map<String, Object>> series = new ArrayList<>();
        for (int r = 0; r < rings.length; r++) {
            if (rings[r] != null) {
                Map<String, Object> m = rings[r].json();
                m.put("ring", r);
                series.add(m);
            }
        }
        d.put("rings", series);
        d.put("marks", marks);
        d.put("dropped_marks", droppedMarks);
        d.put("stop", stop);
        return d;
    }

    /** One ring's points: point {@code i} holds the maxima over {@code stride} consecutive submits. */
    private static final class Series {
        private final double[] t = new double[MAX_POINTS];
        private final long[] heap = new long[MAX_POINTS];
        private final long[] tasks = new long[MAX_POINTS];
        private final long[] deps = new long[MAX_POINTS];
        private int n;
        private int inBucket;
        private long stride = 1;
        private long submits;

        void add(double time, long h, long tw, long dp) {
            submits++;
            if (inBucket == 0) {
                t[n] = time;
                heap[n] = h;
                tasks[n] = tw;
                deps[n] = dp;
            } else {
                heap[n] = Math.max(heap[n], h);
                tasks[n] = Math.max(tasks[n], tw);
                deps[n] = Math.max(deps[n], dp);
            }
            if (++inBucket == stride) {
                inBucket = 0;
                if (++n == MAX_POINTS) {
                    halve();
                }
            }
        }

        private void halve() {
            for (int i = 0; i < MAX_POINTS / 2; i++) {
                t[i] = t[2 * i];
                heap[i] = Math.max(heap[2 * i], heap[2 * i + 1]);
                tasks[i] = Math.max(tasks[2 * i], tasks[2 * i + 1]);
                deps[i] = Math.max(deps[2 * i], deps[2 * i + 1]);
            }
            n = MAX_POINTS / 2;
            stride *= 2;
        }

        Map<String, Object> json() {
            int points = n + (inBucket > 0 ? 1 : 0);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("submits", submits);
            m.put("stride", stride);
            m.put("t_us", java.util.Arrays.copyOf(t, points));
            m.put("heap", java.util.Arrays.copyOf(heap, points));
            m.put("tasks", java.util.Arrays.copyOf(tasks, points));
            m.put("deps", java.util.Arrays.copyOf(deps, points));
            return m;
        }
    }
}
