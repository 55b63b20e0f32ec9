package dev.jpto.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A ring's heap peak from the ring timeline, when it happened, and the innermost scope open on that ring then (the
 * scope whose buffers set it): {@code site} is where the scope was opened, {@code depth} its depth.
 */
record RingPeak(int ring, long heapPeak, long heapCapacity, double atUs, long tasksPeak, long taskWindow,
                long depsPeak, long depPool, Optional<String> site, int depth) {

    static List<RingPeak> of(JsonNode timeline) {
        List<RingPeak> out = new ArrayList<>();
        for (JsonNode s : timeline.path("rings")) {
            int r = s.path("ring").asInt();
            JsonNode heap = s.path("heap");
            int peak = 0;
            for (int i = 1; i < heap.size(); i++) {
                if (heap.get(i).asLong() > heap.get(peak).asLong()) {
                    peak = i;
                }
            }
            double at = s.path("t_us").path(peak).asDouble();
            Deque<JsonNode> open = new ArrayDeque<>();
            for (JsonNode m : timeline.path("marks")) {
                if (m.path("t_us").asDouble() > at) {
                    break;
                }
                if (m.path("ring").asInt() != r) {
                    continue;
                }
                if (m.path("phase").asText().equals("begin")) {
                    open.push(m);
                } else if (!open.isEmpty()) {
                    open.pop();
                }
            }
            boolean complete = timeline.path("dropped_marks").asLong() == 0 || !open.isEmpty();
            out.add(new RingPeak(r, heap.path(peak).asLong(), timeline.path("heap").path(r).asLong(), at,
                    max(s.path("tasks")), timeline.path("task_window").path(r).asLong(), max(s.path("deps")),
                    timeline.path("dep_pool").path(r).asLong(),
                    complete && !open.isEmpty() ? Optional.of(open.peek().path("site").asText()) : Optional.empty(),
                    open.isEmpty() ? -1 : open.peek().path("depth").asInt()));
        }
        return out;
    }

    private static long max(JsonNode a) {
        long m = 0;
        for (JsonNode v : a) {
            m = Math.max(m, v.asLong());
        }
        return m;
    }
}
