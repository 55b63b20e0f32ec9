package dev.jpto.compiler.plan;

import dev.jpto.compiler.ir.Program;
import dev.jpto.runtime.RingField;
import java.util.ArrayList;
import java.util.List;

/**
 * Static ring sizing: runs a program's orchestration symbolically (no kernels) and computes, per ring, the task
 * window, heap bytes and dep-pool entries it needs, and the runtime_cfg to use.
 *
 * <p>Model. A task stays live until it is CONSUMED (its scope ended, it and every consumer that claimed it
 * completed) and every older task of its ring is reclaimed (reclamation is in order). Completion depends on
 * timing; scope ends do not. The planner therefore sizes for the state the runtime's deadlock test looks at:
 * the orchestrator blocked on a full ring, every submitted task completed, so the live set is exactly the tasks
 * from the oldest one whose scope is still open to the newest. Any smaller ring deadlocks in that state (code 2,
 * 3 or 4); a ring that fits it only waits (back-pressure) and then proceeds, whatever the kernels' timing.
 *
 * <p>Bounds. Task window and heap are exact for that model: the heap is replayed against the runtime's own heap
 * ring ({@code HeapLayout.Model}), which includes the space lost when a request does not fit before the ring's
 * end and wraps to 0. The runtime's measured high-water marks are at least the planned live set (those tasks are
 * live in every run) and may exceed it when the orchestrator runs ahead of the kernels on a larger ring —
 * memory the run did not need. Dep-pool entries are an upper bound for that blocked state: every dependency edge
 * is counted as one entry, although the runtime allocates one only if the producer has not completed when the
 * edge is wired. It bounds the pool a run needs, not the pool's high-water: entries of unpinned tasks whose
 * producers are still running stay taken until those tasks retire, so run-ahead can fill a larger pool past it
 * (dsv4.prefill_layer tiny, attention ring 2: 768 planned, up to 1022 of 1024 held while ring 1 was busy).
 * {@code ring_dep_pool} also sizes the ring's fanin spill pool (spec b.5: a task's claimed edges past the 64 it
 * holds inline, reclaimed as tasks retire); per task that is at most its edge count minus 64, so the same bound
 * covers it.
 */
public final class RingPlanner {
    private RingPlanner() {
    }

    /** Plans {@code program}, which should have passed the verifier. */
    public static RingPlan plan(Program program) {
        RingTrace[] traces = OrchestrationTracer.trace(program);
        List<RingNeed> rings = new ArrayList<>(RingField.RINGS);
        for (RingTrace t : traces) {
            rings.add(need(t));
        }
        return new RingPlan(program.name(), rings);
    }

    private static RingNeed need(RingTrace trace) {
        int n = trace.tasks();
        long[] bytesBefore = new long[n + 1];
        long[] edgesBefore = new long[n + 1];
        for (int t = 0; t < n; t++) {
            bytesBefore[t + 1] = bytesBefore[t] + trace.bytes(t);
            edgesBefore[t + 1] = edgesBefore[t] + trace.edges(t);
        }
        long live = 0;
        long liveBytes = 0;
        long deps = 0;
        for (int t = 0; t < n; t++) {
            int p = trace.pinnedFrom(t);
            live = Math.max(live, t - p + 1);
            liveBytes = Math.max(liveBytes, bytesBefore[t + 1] - bytesBefore[p]);
            deps = Math.max(deps, edgesBefore[t + 1] - edgesBefore[p]);
        }
        long heap = HeapSizer.minimum(trace, liveBytes);
        return new RingNeed(trace.ring, n, live, liveBytes, heap, deps, Recommend.taskWindow(live),
                Recommend.heap(trace, heap), Recommend.depPool(deps));
    }
}
