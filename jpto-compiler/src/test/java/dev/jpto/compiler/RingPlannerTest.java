package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.RingPlan;
import dev.jpto.compiler.ir.RingPlanner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The static plan against the chip: what it says a run needs is what the run needs. */
@Timeout(60)
class RingPlannerTest {
    private static Map<String, Tensor> hogArgs(Arena arena, int blocks) {
        return Map.of("x", Tensors.random(arena, 9, 64L * blocks, 64),
                "y", Tensor.allocate(arena, DType.FP32, 64L * blocks, 64));
    }

    @Test
    void oneScopeHoldingEverythingNeedsTheSumOfItsOutputs() {
        RingPlan plan = RingPlanner.plan(TestPrograms.heapHog(8));
        assertThat(plan.tasks()).containsExactly(16, 0, 0, 0);
        assertThat(plan.heap()).containsExactly(8 * 16384, 0, 0, 0);
        assertThat(plan.heapBytes(0)).isEqualTo(9 * 16384);
        assertThat(plan.taskWindow(0)).isEqualTo(32);
        assertThat(plan.taskWindow(1)).isZero();
    }

    @Test
    void thePlannedHeapIsTheChipsHighWaterMarkAndEnoughToRun() {
        CompiledProgram hog = Compiler.compileInMemory(TestPrograms.heapHog(8));
        RingPlan plan = RingPlanner.plan(hog.program());
        try (Arena arena = Arena.ofShared()) {
            RunReport ok = hog.run(hogArgs(arena, 8), RunConfig.defaults().withRingHeap(plan.heapBytes(0), 0, 0, 0)
                    .withRingTaskWindow(plan.taskWindow(0)));
            assertThat(ok.ring(0).heapMax()).isEqualTo(plan.heap()[0]);
            assertThat(ok.ring(0).taskWindowMax()).isLessThanOrEqualTo(plan.tasks()[0]);
            assertThatThrownBy(() -> hog.run(hogArgs(arena, 8),
                    RunConfig.defaults().withRingHeap(plan.heap()[0] / 2, 0, 0, 0)))
                    .isInstanceOfSatisfying(ChipRuntimeException.class,
                            e -> assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK));
            assertThatThrownBy(() -> hog.run(hogArgs(arena, 8), RunConfig.defaults().withRingTaskWindow(16)))
                    .isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                        assertThat(e.error()).isIn(ErrorCode.FLOW_CONTROL_DEADLOCK, ErrorCode.SCOPE_DEADLOCK);
                        assertThat(e.getMessage()).contains("runtime_cfg ring_task_window=32,0,0,0 covers it");
                    });
        }
    }

    /** Per-iteration scopes release their tasks: ring 1 needs one iteration's worth, not four. */
    @Test
    void scopesInsideLoopsOnlyNeedOneIteration() {
        KernelBuilder mk = KernelBuilder.kernel("row_max");
        KTensor x1 = mk.input("x", FP32, 2);
        KTensor m1 = mk.output("m", FP32, 2);
        KTile t1 = mk.tile("t", FP32, 64, 64);
        KTile mx = mk.tile("mx", FP32, 64, 1);
        mk.load(t1, x1, 0, 0).rowMax(mx, t1).store(mx, m1, 0, 0);
        KernelBuilder ck = KernelBuilder.kernel("copy_col");
        KTensor src = ck.input("m", FP32, 2);
        KTensor dst = ck.output("y", FP32, 2);
        KTile c = ck.tile("c", FP32, 64, 1);
        ck.load(c, src, 0, 0).store(c, dst, 0, 0);
        ProgramBuilder p = ProgramBuilder.program("scoped_max");
        TensorVar x = p.input("x", FP32, 256, 64);
        TensorVar y = p.output("y", FP32, 256, 1);
        KernelRef rowMax = p.aiv(mk.build());
        KernelRef copy = p.aiv(ck.build());
        p.orchestrate(o -> o.forRange("i", 4, i -> o.scope(() -> {
            TensorVar m = o.alloc("m", FP32, 64, 1);
            o.submit(rowMax, in(x.block(64, 64).at(i, 0)), out(m));
            o.submit(copy, in(m), outExisting(y.block(64, 1).at(i, 0)));
        })));
        Program program = p.build();
        RingPlan plan = RingPlanner.plan(program);
        assertThat(plan.tasks()).containsExactly(0, 2, 0, 0);
        assertThat(plan.heap()).containsExactly(0, 1024, 0, 0);
        // The peak is the least the ring may hold: the orchestrator then waits for reclamation instead of
        // deadlocking. (With more room it runs ahead, so a run's high-water mark may exceed the plan.)
        for (long heap1 : new long[] {plan.heap()[1], plan.heapBytes(1)}) {
            try (Arena arena = Arena.ofShared()) {
                Tensor xs = Tensors.random(arena, 4, 256, 64);
                Tensor ys = Tensor.allocate(arena, DType.FP32, 256, 1);
                RunReport rep = Compiler.compileInMemory(program).run(Map.of("x", xs, "y", ys),
                        RunConfig.defaults().withRingHeap(0, heap1, 0, 0));
                assertThat(rep.ring(1).heapBytes()).isEqualTo(heap1);
                for (int r = 0; r < 256; r++) {
                    double max = Double.NEGATIVE_INFINITY;
                    for (int col = 0; col < 64; col++) {
                        max = Math.max(max, xs.getDouble(r * 64L + col));
                    }
                    assertThat(ys.getDouble(r)).isEqualTo(max);
                }
            }
        }
    }

    /**
     * Around the plan's boundary: a single-scope program runs iff the heap ring holds its planned peak (the ring
     * starts empty, so allocation is linear and the plan is exact).
     */
    @Property(tries = 8, seed = "11")
    void runsExactlyWhenTheRingHoldsThePlannedPeak(@ForAll @IntRange(min = 2, max = 6) int blocks,
            @ForAll @IntRange(min = -2, max = 2) int deltaKiB) {
        CompiledProgram hog = Compiler.compileInMemory(TestPrograms.heapHog(blocks));
        long peak = RingPlanner.plan(hog.program()).heap()[0];
        long ring = peak + deltaKiB * 1024L;
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> args = hogArgs(arena, blocks);
            RunConfig c = RunConfig.defaults().withRingHeap(ring, 0, 0, 0);
            if (ring >= peak) {
                hog.run(args, c);
                assertThat(args.get("y").toDoubleArray()).containsExactly(args.get("x").toDoubleArray());
            } else {
                assertThatThrownBy(() -> hog.run(args, c)).isInstanceOfSatisfying(ChipRuntimeException.class,
                        e -> assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK));
            }
        }
    }
}
