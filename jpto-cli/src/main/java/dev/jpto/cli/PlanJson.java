package dev.jpto.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.runtime.RunReport;

/** The ring plan and a chip run's ring report as JSON, in the field names of docs/schema/plan.schema.json. */
final class PlanJson {
    private PlanJson() {
    }

    /** One object per ring of {@code plan}: what it needs and what is recommended. */
    static ArrayNode rings(RingPlan plan) {
        ArrayNode rings = JsonDocument.array();
        for (RingNeed n : plan.rings()) {
            rings.addObject().put("ring", n.ring()).put("tasks", n.tasks()).put("live_tasks", n.liveTasks())
                    .put("live_heap_bytes", n.liveHeapBytes()).put("heap_bytes_needed", n.heapBytes())
                    .put("dep_entries", n.depEntries()).put("recommended_task_window", n.recommendedTaskWindow())
                    .put("recommended_heap_bytes", n.recommendedHeap())
                    .put("recommended_dep_pool", n.recommendedDepPool());
        }
        return rings;
    }

    /** A chip run's tasks, wall time and, per ring, the capacities in force with their high-water marks. */
    static ObjectNode report(RunReport r) {
        ObjectNode o = JsonDocument.object();
        o.put("tasks", r.tasksExecuted());
        o.put("elapsed_seconds", r.elapsedNanos() / 1e9);
        ArrayNode rings = o.putArray("rings");
        for (RunReport.Ring ring : r.rings()) {
            rings.addObject().put("ring", ring.ring()).put("task_window", ring.taskWindow())
                    .put("heap_bytes", ring.heapBytes()).put("dep_pool", ring.depPool())
                    .put("task_window_max", ring.taskWindowMax()).put("heap_max", ring.heapMax())
                    .put("dep_pool_max", ring.depPoolMax());
        }
        return o;
    }
}
