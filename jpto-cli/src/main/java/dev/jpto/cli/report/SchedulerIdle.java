package dev.jpto.cli.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the executors of a run spent it, in executor-microseconds from the first task's start to the last one's end:
 * busy, idle while a task was ready (every producer finished and, when the trace has submit times, the task
 * submitted) but not started — the scheduler's overhead — and idle with nothing ready. On the host the executors are
 * the scheduler threads (any of them runs a task of any core type); a trace without thread numbers counts the cores
 * of each type instead.
 */
record SchedulerIdle(String executors, int count, int tasks, double busyUs, double idleReadyUs, double idleEmptyUs) {
    static final String THREADS = "scheduler threads";

    /** One record for the scheduler threads, or one per core type (the lane names' first word: AIC, AIV). */
    static List<SchedulerIdle> of(Trace trace, DepGraph graph) {
        Map<Long, TraceTask> byId = new HashMap<>();
        trace.tasks().forEach(t -> byId.put(t.id(), t));
        boolean byThread = !trace.tasks().isEmpty() && trace.tasks().stream().allMatch(t -> t.thread() >= 0);
        Map<String, Integer> cores = new HashMap<>();
        if (byThread) {
            cores.put(THREADS, (int) trace.tasks().stream().mapToInt(TraceTask::thread).distinct().count());
        } else {
            for (String lane : trace.lanes()) {
                cores.merge(typeOf(lane), 1, Integer::sum);
            }
        }
        Map<String, List<double[]>> events = new HashMap<>();
        double t0 = trace.startUs();
        for (int i = 0; i < graph.size(); i++) {
            TraceTask t = byId.get(graph.ids()[i]);
            if (t == null) {
                continue; // never ran
            }
            double ready = trace.submittedUs().getOrDefault(t.id(), t0);
            for (int p : graph.preds()[i]) {
                TraceTask producer = byId.get(graph.ids()[p]);
                if (producer != null) {
                    ready = Math.max(ready, producer.endUs());
                }
            }
            ready = Math.min(Math.max(ready, t0), t.startUs());
            // {time, change of waiting tasks, change of busy cores}
            String key = byThread ? THREADS : typeOf(trace.lanes().get(t.lane()));
            List<double[]> ev = events.computeIfAbsent(key, k -> new ArrayList<>());
            ev.add(new double[] {ready, 1, 0});
            ev.add(new double[] {t.startUs(), -1, 1});
            ev.add(new double[] {t.endUs(), 0, -1});
        }
        List<SchedulerIdle> out = new ArrayList<>();
        events.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> out.add(sweep(e.getKey(),
                cores.get(e.getKey()), e.getValue(), t0, trace.endUs())));
        return out;
    }

    private static SchedulerIdle sweep(String type, int cores, List<double[]> ev, double t0, double t1) {
        ev.sort((a, b) -> Double.compare(a[0], b[0]));
        double busy = 0;
        double idleReady = 0;
        double idleEmpty = 0;
        int waiting = 0;
        int running = 0;
        double at = t0;
        for (double[] e : ev) {
            double span = Math.min(e[0], t1) - at;
            if (span > 0) {
                int idle = Math.max(0, cores - running);
                int readyIdle = Math.min(idle, waiting);
                busy += running * span;
                idleReady += readyIdle * span;
                idleEmpty += (idle - readyIdle) * span;
                at += span;
            }
            waiting += (int) e[1];
            running += (int) e[2];
        }
        if (t1 > at) {
            idleEmpty += cores * (t1 - at);
        }
        return new SchedulerIdle(type, cores, ev.size() / 3, busy, idleReady, idleEmpty);
    }

    private static String typeOf(String lane) {
        int space = lane.indexOf(' ');
        return space < 0 ? lane : lane.substring(0, space);
    }
}
