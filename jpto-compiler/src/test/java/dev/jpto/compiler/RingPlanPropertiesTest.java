package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.PlanPrograms;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.RingSize;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random programs (scopes up to depth 5, loops of scopes, intermediates of three sizes held across nested scopes):
 * the runtime passes with exactly the planned heap on every ring and deadlocks with one KiB less on the ring
 * that needs the most. The runtime is the reference; the planner never runs it.
 */
class RingPlanPropertiesTest {
    private static final int[] WIDTHS = {64, 128, 192};

    @Property(tries = 15, seed = "20261202")
    void theRuntimeAgreesWithThePlannedHeapMinimum(@ForAll long seed) {
        Program p = randomProgram(seed);
        RingPlan plan = RingPlanner.plan(p);
        long[] w = plan.taskWindows();
        long[] heap = new long[RingField.RINGS];
        int hungriest = 0;
        for (int r = 0; r < heap.length; r++) {
            heap[r] = Math.max(RingField.HEAP.min(), plan.ring(r).heapBytes());
            if (plan.ring(r).heapBytes() > plan.ring(hungriest).heapBytes()) {
                hungriest = r;
            }
        }
        RunConfig exact = RunConfig.defaults().withRingTaskWindow(RingSize.of(w[0], w[1], w[2], w[3]))
                .withRingHeap(RingSize.of(heap[0], heap[1], heap[2], heap[3]));
        RunReport ok = runPassing(p, exact);
        for (int r = 0; r < heap.length; r++) {
            assertThat(ok.ring(r).heapMax()).isGreaterThanOrEqualTo(plan.ring(r).liveHeapBytes());
        }
        long less = plan.ring(hungriest).heapBytes() - 1024;
        if (less >= RingField.HEAP.min()) {
            long[] h = new long[RingField.RINGS];
            h[hungriest] = less;
            ErrorCode code = run(p, RunConfig.defaults().withRingHeap(RingSize.of(h[0], h[1], h[2], h[3])));
            assertThat(code).as("seed %d ring %d heap %d\n%s", seed, hungriest, less, plan.table())
                    .isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
        }
    }

    /** As in RingPlanRuntimeTest: a runtime race may report a ring deadlock at tight sizes; a real one repeats. */
    private static RunReport runPassing(Program p, RunConfig c) {
        for (int attempt = 1; ; attempt++) {
            try (Arena arena = Arena.ofShared()) {
                return Runner.run(Compiler.compileInMemory(p), args(arena, p), c);
            } catch (ChipRuntimeException e) {
                if (attempt == 3 || e.error() == ErrorCode.KERNEL_EXCEPTION) {
                    throw e;
                }
            }
        }
    }

    private static ErrorCode run(Program p, RunConfig c) {
        try (Arena arena = Arena.ofShared()) {
            Runner.run(Compiler.compileInMemory(p), args(arena, p), c);
            return ErrorCode.NONE;
        } catch (ChipRuntimeException e) {
            return e.error();
        }
    }

    private static Map<String, Tensor> args(Arena arena, Program p) {
        return Map.of("x", Tensors.random(arena, 5, 64, 192), "y", Tensor.allocate(arena, DType.FP32, 64, 192));
    }

    static Program randomProgram(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ProgramBuilder p = ProgramBuilder.program("random_" + Long.toHexString(seed));
        TensorVar x = p.input("x", FP32, 64, 192);
        TensorVar y = p.output("y", FP32, 64, 192);
        KernelRef[] copies = new KernelRef[WIDTHS.length];
        for (int i = 0; i < WIDTHS.length; i++) {
            copies[i] = p.aiv(PlanPrograms.copy("copy_" + WIDTHS[i], 64, WIDTHS[i]));
        }
        int[] names = {0};
        p.orchestrate(o -> {
            block(o, rnd, 0, copies, x, y, names);
            for (int i = 0; i < WIDTHS.length; i++) { // every kernel is used at least once
                o.submit(copies[i], in(x.at(0, 0).size(64, WIDTHS[i])), outExisting(y.at(0, 0).size(64, WIDTHS[i])));
            }
        });
        return p.build();
    }

    private static void block(Orch o, SplittableRandom rnd, int depth, KernelRef[] copies, TensorVar x, TensorVar y,
                              int[] names) {
        int items = 1 + rnd.nextInt(3);
        for (int n = 0; n < items && names[0] < 40; n++) {
            int kind = depth >= 5 ? 0 : rnd.nextInt(4);
            switch (kind) {
                case 0, 1 -> {
                    List<TensorVar> held = new ArrayList<>();
                    List<Integer> widths = new ArrayList<>();
                    int k = 1 + rnd.nextInt(3);
                    for (int i = 0; i < k; i++) {
                        int wi = rnd.nextInt(WIDTHS.length);
                        TensorVar t = o.alloc("t" + names[0]++, FP32, 64, WIDTHS[wi]);
                        o.submit(copies[wi], in(x.at(0, 0).size(64, WIDTHS[wi])), out(t));
                        held.add(t);
                        widths.add(wi);
                    }
                    if (kind == 1 && depth < 5) {
                        o.scope(() -> block(o, rnd, depth + 1, copies, x, y, names));
                    }
                    for (int i = 0; i < k; i++) {
                        int wi = widths.get(i);
                        o.submit(copies[wi], in(held.get(i)), outExisting(y.at(0, 0).size(64, WIDTHS[wi])));
                    }
                }
                case 2 -> o.scope(() -> block(o, rnd, depth + 1, copies, x, y, names));
                default -> o.forRange("v" + names[0]++, 1 + rnd.nextInt(3),
                        v -> o.scope(() -> block(o, rnd, depth + 1, copies, x, y, names)));
            }
        }
    }
}
