package dev.jpto.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A swimlane trace ({@code chip_swimlane.json} or {@code chip_swimlane_device.json}): lanes, their tasks, and when
 * the orchestrator finished submitting each task (level 4 and up; empty otherwise), in microseconds.
 */
record Trace(List<String> lanes, List<TraceTask> tasks, Map<Long, Double> submittedUs) {

    /** Reads the Chrome trace-event document: thread names become lanes, complete events of category task tasks. */
    static Trace of(JsonNode doc) {
        Map<Integer, String> names = new TreeMap<>();
        List<JsonNode> complete = new ArrayList<>();
        Map<Long, Double> submitted = new HashMap<>();
        for (JsonNode e : doc.path("traceEvents")) {
            String ph = e.path("ph").asText();
            String cat = e.path("cat").asText();
            if (ph.equals("M") && e.path("name").asText().equals("thread_name")) {
                names.put(e.path("tid").asInt(), e.path("args").path("name").asText());
            } else if (ph.equals("X") && cat.equals("task")) {
                complete.add(e);
            } else if (ph.equals("X") && cat.equals("submit") && e.path("args").has("task_id")) {
                submitted.put(Long.decode(e.path("args").path("task_id").asText()),
                        e.path("ts").asDouble() + e.path("dur").asDouble());
            }
        }
        List<String> lanes = new ArrayList<>(names.values());
        Map<Integer, Integer> laneOfTid = new TreeMap<>();
        int i = 0;
        for (int tid : names.keySet()) {
            laneOfTid.put(tid, i++);
        }
        List<TraceTask> tasks = new ArrayList<>(complete.size());
        for (JsonNode e : complete) {
            int tid = e.path("tid").asInt();
            Integer lane = laneOfTid.get(tid);
            if (lane == null) {
                lane = lanes.size();
                lanes.add("thread " + tid);
                laneOfTid.put(tid, lane);
            }
            JsonNode a = e.path("args");
            List<String> args = new ArrayList<>();
            a.path("args").forEach(x -> args.add(x.asText()));
            long id = a.has("task_id_raw") ? Long.parseLong(a.path("task_id_raw").asText())
                    : Long.decode(a.path("task_id").asText("-1"));
            tasks.add(new TraceTask(id, e.path("name").asText(), lane, a.path("thread").asInt(-1),
                    e.path("ts").asDouble(), e.path("dur").asDouble(), List.copyOf(args)));
        }
        return new Trace(List.copyOf(lanes), List.copyOf(tasks), Map.copyOf(submitted));
    }

    /** From the first task's start to the last task's end, in microseconds (0 without tasks). */
    double spanUs() {
        return tasks.isEmpty() ? 0 : endUs() - startUs();
    }

    double startUs() {
        return tasks.stream().mapToDouble(TraceTask::startUs).min().orElse(0);
    }

    double endUs() {
        return tasks.stream().mapToDouble(TraceTask::endUs).max().orElse(0);
    }
}
