package dev.jpto.compiler.plan;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.run.RunConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Planner figures against values worked out by hand from the runtime rules: ring = min(depth, 3), a scope pins
 * its tasks until it closes, in-order reclamation, outputs rounded to 1 KiB, strict heap-ring fit tests (spec a.3,
 * b.1–b.3), creator and TensorMap edges (c.1, c.3).
 */
class RingPlannerTest {
    private static final long K = 1024;

    private static void assertRing(RingNeed n, long tasks, long live, long liveHeap, long heap, long deps) {
        assertThat(new long[] {n.tasks(), n.liveTasks(), n.liveHeapBytes(), n.heapBytes(), n.depEntries()})
                .as("ring %d: tasks, live, live heap, heap, deps", n.ring())
                .containsExactly(tasks, live, liveHeap, heap, deps);
    }

    private static void assertUnused(RingNeed n) {
        assertRing(n, 0, 0, 0, 0, 0);
        assertThat(new long[] {n.recommendedTaskWindow(), n.recommendedHeap(), n.recommendedDepPool()})
                .containsExactly(4, 1L << 20, 4);
    }

    /**
     * Per depth-1 scope: two 16 KiB outputs and a writer into y; ring 1 holds 3 tasks and 32 KiB. 32 KiB is not
     * enough: the second scope's first output does not fit before the end (32 − 32 < 16), wraps to 0, and the
     * next one needs tail − top > 16 KiB strictly while tail − top = 32 − 16. With 48 KiB it fits; 47 KiB wraps
     * the same way. So the minimum is 48 KiB.
     */
    @Test
    void aLoopOfScopesNeedsOneScopePlusTheWrapLoss() {
        RingPlan plan = RingPlanner.plan(PlanPrograms.scopedChain(6));
        assertUnused(plan.ring(0));
        assertRing(plan.ring(1), 18, 3, 32 * K, 48 * K, 2);
        assertUnused(plan.ring(2));
        assertUnused(plan.ring(3));
        assertThat(plan.ring(1).taskWindow()).isEqualTo(4);
        assertThat(plan.runtimeCfg()).containsExactly(Map.entry("ring_task_window", "4"),
                Map.entry("ring_heap", "1MiB"), Map.entry("ring_dep_pool", "4"));
    }

    /** The root scope pins every task until the end: ring 0 holds all 16 tasks and all eight 16 KiB outputs. */
    @Test
    void theRootScopeKeepsEverythingLive() {
        RingPlan plan = RingPlanner.plan(PlanPrograms.heapHogAt(0, 8));
        assertRing(plan.ring(0), 16, 16, 128 * K, 128 * K, 8);
        assertThat(plan.ring(0).recommendedTaskWindow()).as("16 live + 1 free slot -> 32").isEqualTo(32);
        assertThat(plan.ring(0).recommendedDepPool()).isEqualTo(8);
    }

    /** Depth d ≥ 3 all land on ring 3. */
    @Test
    void deepScopesShareRingThree() {
        for (int d = 3; d <= 5; d++) {
            RingPlan plan = RingPlanner.plan(PlanPrograms.heapHogAt(d, 4));
            assertRing(plan.ring(3), 8, 8, 64 * K, 64 * K, 4);
            for (int r = 0; r < 3; r++) {
                assertUnused(plan.ring(r));
            }
        }
    }

    /**
     * A tree of scopes: each node has 2 tasks (its copy in, and its copy out after its children). Rings 0–2 hold
     * one node (2 tasks, 16 KiB, 1 creator edge); ring 3 holds a whole depth-3 subtree: 1 + 2 + 4 = 7 nodes.
     */
    @Test
    void nestedScopesPinTheOpenPathOnly() {
        RingPlan plan = RingPlanner.plan(PlanPrograms.nested(5));
        for (int r = 0; r < 3; r++) {
            assertRing(plan.ring(r), 2L << r, 2, 16 * K, 16 * K, 1);
        }
        RingNeed r3 = plan.ring(3);
        assertThat(new long[] {r3.tasks(), r3.liveTasks(), r3.liveHeapBytes(), r3.depEntries()})
                .containsExactly(8 * 14, 14, 7 * 16 * K, 7);
        assertThat(r3.heapBytes()).isBetween(r3.liveHeapBytes(), r3.liveHeapBytes() + 16 * K);
        assertThat(plan.runtimeCfg()).containsExactly(Map.entry("ring_task_window", "4,4,4,16"),
                Map.entry("ring_heap", "1MiB"), Map.entry("ring_dep_pool", "4,4,4,8"));
    }

    /**
     * One 16 KiB output per scope fits a 16 KiB ring: when the next scope starts the ring is empty with
     * tail = 16 KiB, not above the request, so the allocator rebases to 0. INOUT chain: acc_k waits for the creator
     * and the previous writer (2 edges, 1 for the first), the last copy for both too: 1 + 2·3 + 2 = 9.
     */
    @Test
    void anInoutChainCountsCreatorAndWriterEdges() {
        RingPlan plan = RingPlanner.plan(PlanPrograms.accumulate(3, 5));
        assertRing(plan.ring(1), 18, 6, 16 * K, 16 * K, 9);
        assertThat(plan.ring(1).recommendedTaskWindow()).isEqualTo(8);
        assertThat(plan.ring(1).recommendedDepPool()).isEqualTo(16);
    }

    /** Disjoint blocks do not depend on each other; a whole read depends on every block writer; a reshape too. */
    @Test
    void tensorMapEdgesFollowOverlap() {
        assertThat(RingPlanner.plan(writesThenReads(8, "blocks")).ring(0).depEntries()).isEqualTo(8);
        assertThat(RingPlanner.plan(writesThenReads(8, "whole")).ring(0).depEntries()).isEqualTo(8);
        assertThat(RingPlanner.plan(writesThenReads(8, "first")).ring(0).depEntries()).isEqualTo(1);
        assertThat(RingPlanner.plan(writesThenReads(8, "reshape")).ring(0).depEntries()).isEqualTo(8);
    }

    /**
     * A whole-tensor writer starting at row 0 still reaches a reader of a late block through the row index; an
     * INOUT covering a block retires that block's writer, so a second reader waits only for the INOUT.
     */
    @Test
    void longWritersAndCoveredEntries() {
        int n = 8;
        ProgramBuilder p = ProgramBuilder.program("long_writer");
        TensorVar x = p.input("x", FP32, 64L * n, 64);
        TensorVar t = p.output("t", FP32, 64L * n, 64);
        TensorVar y = p.output("y", FP32, 64L * n, 64);
        KernelRef copy = p.aiv(PlanPrograms.copy("copy_tile", 64, 64));
        KernelRef copyAll = p.aiv(PlanPrograms.copy("copy_all", 64 * n, 64));
        KernelRef acc = p.aiv(PlanPrograms.accumulate());
        p.orchestrate(o -> {
            o.submit(copyAll, in(x), outExisting(t));                                           // 0 edges
            o.forRange("i", n, i -> o.submit(copy, in(x.block(64, 64).at(i, 0)),
                    outExisting(t.block(64, 64).at(i, 0))));                                    // 0 edges each
            o.submit(copy, in(t.block(64, 64).at(n - 1, 0)), outExisting(y.block(64, 64).at(0, 0))); // whole + block
            o.submit(acc, in(x.block(64, 64).at(0, 0)), dev.jpto.compiler.dsl.TaskArg.inout(
                    t.block(64, 64).at(2, 0)));                                                 // whole + block 2
            o.submit(copy, in(t.block(64, 64).at(2, 0)), outExisting(y.block(64, 64).at(1, 0))); // whole + acc
        });
        assertThat(RingPlanner.plan(p.build()).ring(0).depEntries()).isEqualTo(2 + 2 + 2);
    }

    /** n tasks write the 64-row blocks of t; then readers: one per block, one whole, only block 0, or a reshape. */
    static Program writesThenReads(int n, String reader) {
        ProgramBuilder p = ProgramBuilder.program("w_then_r_" + reader);
        TensorVar x = p.input("x", FP32, 64L * n, 64);
        TensorVar t = p.output("t", FP32, 64L * n, 64);
        TensorVar y = p.output("y", FP32, 64L * n, 64);
        KernelRef copy = p.aiv(PlanPrograms.copy("copy_tile", 64, 64));
        boolean readsWhole = !reader.equals("blocks") && !reader.equals("first");
        KernelRef copyAll = readsWhole ? p.aiv(PlanPrograms.copy("copy_all", 64 * n, 64)) : null; // only if used
        p.orchestrate(o -> {
            o.forRange("i", n, i -> o.submit(copy, in(x.block(64, 64).at(i, 0)), outExisting(t.block(64, 64).at(i, 0))));
            switch (reader) {
                case "blocks" -> o.forRange("i", n, i ->
                        o.submit(copy, in(t.block(64, 64).at(i, 0)), outExisting(y.block(64, 64).at(i, 0))));
                case "whole" -> o.submit(copyAll, in(t), outExisting(y));
                case "first" -> o.submit(copy, in(t.block(64, 64).at(0, 0)), outExisting(y.block(64, 64).at(0, 0)));
                default -> o.submit(copyAll, in(t.reshape(64L * n, 64)), outExisting(y));
            }
        });
        return p.build();
    }

    /** Rounding: power-of-two windows above the live set, MiB heaps, power-of-two dep pools, runtime minimums. */
    @Test
    void recommendationsRoundUp() {
        assertThat(Recommend.taskWindow(0)).isEqualTo(4);
        assertThat(Recommend.taskWindow(3)).isEqualTo(4);
        assertThat(Recommend.taskWindow(4)).isEqualTo(8);
        assertThat(Recommend.taskWindow(16383)).isEqualTo(16384);
        assertThat(Recommend.taskWindow(16384)).isEqualTo(32768);
        assertThat(Recommend.depPool(0)).isEqualTo(4);
        assertThat(Recommend.depPool(9)).isEqualTo(16);
        assertThat(Recommend.depPool(16)).isEqualTo(16);
        assertThatThrownBy(() -> Recommend.taskWindow(1L << 30)).hasMessageContaining("split its scopes");
        RingTrace one = new RingTrace(0);
        one.add(520L << 20, 0, 0);
        assertThat(Recommend.heap(one, 520L << 20)).as("MiB multiple, not a power of two").isEqualTo(520L << 20);
        assertThat(Recommend.heap(one, (520L << 20) + 1024)).isEqualTo(521L << 20);
    }

    /** The heap replay against hand traces: a request the size of the ring fits only when it is empty. */
    @Test
    void heapReplayFollowsTheAllocatorRules() {
        RingTrace t = new RingTrace(1);
        t.add(16 * K, 0, 0);
        t.add(16 * K, 0, 0);
        assertThat(HeapSizer.passes(t, 32 * K)).isTrue();
        assertThat(HeapSizer.passes(t, 31 * K)).isFalse();
        RingTrace scopes = new RingTrace(1);
        scopes.add(16 * K, 0, 0);
        scopes.add(16 * K, 0, 1);
        assertThat(HeapSizer.passes(scopes, 16 * K)).as("each task alone in its scope: rebase").isTrue();
        assertThat(HeapSizer.minimum(scopes, 16 * K)).isEqualTo(16 * K);
        assertThat(HeapSizer.passes(scopes, 512)).as("below the runtime minimum").isFalse();
    }

    /** Every runtimeCfg value parses back through RunConfig's own vocabulary to the planned numbers. */
    @Test
    void runtimeCfgRoundTripsThroughRunConfig() {
        RingPlan plan = RingPlanner.plan(PlanPrograms.nested(4));
        RunConfig c = RunConfig.fromMap(plan.runtimeCfg());
        assertThat(c.ringTaskWindow().entries()).containsExactly(plan.taskWindows());
        assertThat(c.ringHeap().entries()).containsExactly(plan.heaps());
        assertThat(c.ringDepPool().entries()).containsExactly(plan.depPools());
        assertThat(plan.runtimeCfgLine()).startsWith("--runtime-cfg ring_task_window=4,4,4,");
        assertThat(plan.table()).contains("ring plan for 'nested_4'", "runtime_cfg: ring_task_window=")
                .hasLineCount(8);
    }

    /** Against the runtime defaults, a program needing more than 256 MiB on ring 1 is told what to use. */
    @Test
    void adviceNamesTheShortRingsAndTheFix() {
        RingPlan big = RingPlanner.plan(PlanPrograms.heapHogAt(1, 17_000));
        assertThat(big.ring(1).heapBytes()).isEqualTo(17_000 * 16 * K);
        assertThat(big.ring(1).recommendedHeap()).isEqualTo(266L << 20);
        assertThat(big.advice(dev.jpto.runtime.RuntimeEnv.defaults())).hasValueSatisfying(a -> assertThat(a)
                .contains("ring_heap 266MiB on ring 1 (in force 256MiB)",
                        "ring_task_window 65536 on ring 1 (in force 16384)",
                        "ring_heap=1MiB,266MiB,1MiB,1MiB", "ring_task_window=4,65536,4,4", "ring_heap=auto"));
        assertThat(big.advice(dev.jpto.runtime.RuntimeEnv.defaults().withRingHeap(0, 266L << 20, 0, 0)
                .withRingTaskWindow(0, 65536, 0, 0))).isEmpty();
        RingPlan chain = RingPlanner.plan(PlanPrograms.scopedChain(6));
        assertThat(chain.advice(dev.jpto.runtime.RuntimeEnv.defaults().withRingHeap(40 * K))).hasValueSatisfying(
                a -> assertThat(a).contains("ring_heap 1MiB on ring 1 (in force 40KiB)")
                        .doesNotContain("ring_task_window"));
    }
}
