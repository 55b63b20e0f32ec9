package dev.jpto.tools.fuzz;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reference computes what the program says, task by task, and the chip agrees with it. */
class ReferenceExecutorTest {
    /** For each 2-row block i: t = x_i · 3 (an intermediate), z_i = t + x_i. So z = 4·x. */
    private static Program timesFour() {
        KernelBuilder s = KernelBuilder.kernel("scale");
        KTensor sx = s.input("x", FP32, 2);
        KTensor st = s.output("t", FP32, 2);
        KTile a = s.tile("a", FP32, 2, 4);
        s.load(a, sx, 0, 0).muls(a, a, 3).store(a, st, 0, 0);
        KernelBuilder k = KernelBuilder.kernel("add");
        KTensor kt = k.input("t", FP32, 2);
        KTensor kx = k.input("x", FP32, 2);
        KTensor kz = k.output("z", FP32, 2);
        KTile b = k.tile("b", FP32, 2, 4);
        KTile c = k.tile("c", FP32, 2, 4);
        k.load(b, kt, 0, 0).load(c, kx, 0, 0).add(b, b, c).store(b, kz, 0, 0);
        ProgramBuilder p = ProgramBuilder.program("times_four");
        TensorVar x = p.input("x", FP32, 6, 4);
        TensorVar z = p.output("z", FP32, 6, 4);
        KernelRef scale = p.aiv(s.build());
        KernelRef add = p.aiv(k.build());
        p.orchestrate(o -> o.forRange("i", 3, i -> o.scope(() -> {
            TensorVar t = o.alloc("t", FP32, 2, 4);
            o.submit(scale, in(x.block(2, 4).at(i, 0)), out(t));
            o.submit(add, in(t), in(x.block(2, 4).at(i, 0)), outExisting(z.block(2, 4).at(i, 0)));
        })));
        return p.build();
    }

    /** The reference runs {@code tasks} tasks and computes z = 4·x; the chip computes the same z. */
    private static void timesFourAgrees(Program p, long seed, int tasks) {
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> ref = FuzzInputs.create(arena, p, seed);
            double[] x = ref.get("x").toDoubleArray();
            assertThat(ReferenceExecutor.run(p, ref)).isEqualTo(tasks);
            double[] z = ref.get("z").toDoubleArray();
            for (int i = 0; i < x.length; i++) {
                assertThat(z[i]).isEqualTo(4 * x[i]);
            }
            Map<String, Tensor> chip = FuzzInputs.create(arena, p, seed);
            Runner.run(Compiler.compileInMemory(p), chip);
            assertThat(chip.get("z").toDoubleArray()).containsExactly(z);
        }
    }

    @Test
    void computesTheProgramsMeaningAndTheChipAgrees() {
        timesFourAgrees(timesFour(), 5, 6);
    }

    /** The same z = 4·x as three-block tasks in a manual scope: block b takes rows 2b, 2b + 1. */
    private static Program timesFourSpmd() {
        KernelBuilder s = KernelBuilder.kernel("scale");
        KTensor sx = s.input("x", FP32, 2);
        KTensor st = s.output("t", FP32, 2);
        KScalar sb = s.scalar("b");
        KTile a = s.tile("a", FP32, 2, 4);
        s.load(a, sx, sb.times(2), 0).muls(a, a, 3).store(a, st, sb.times(2), 0);
        KernelBuilder k = KernelBuilder.kernel("add");
        KTensor kt = k.input("t", FP32, 2);
        KTensor kx = k.input("x", FP32, 2);
        KTensor kz = k.output("z", FP32, 2);
        KScalar kb = k.scalar("b");
        KTile b = k.tile("b", FP32, 2, 4);
        KTile c = k.tile("c", FP32, 2, 4);
        k.load(b, kt, kb.times(2), 0).load(c, kx, kb.times(2), 0).add(b, b, c).store(b, kz, kb.times(2), 0);
        ProgramBuilder p = ProgramBuilder.program("times_four_spmd");
        TensorVar x = p.input("x", FP32, 6, 4);
        TensorVar z = p.output("z", FP32, 6, 4);
        KernelRef scale = p.aiv(s.build());
        KernelRef add = p.aiv(k.build());
        p.orchestrate(o -> {
            TensorVar t = o.alloc("t", FP32, 6, 4);
            o.manualScope(() -> {
                o.submit(SubmitOptions.blocks(3).withLabel("s"), scale, in(x), out(t), scalar(Orch.BLOCK_IDX));
                o.submit(SubmitOptions.blocks(3).withAfter("s"), add, in(t), in(x), outExisting(z),
                        scalar(Orch.BLOCK_IDX));
            });
        });
        return p.build();
    }

    @Test
    void runsEveryBlockOfAnSpmdTaskAndTheChipAgrees() {
        timesFourAgrees(timesFourSpmd(), 7, 2);
    }

    @Test
    void inputsAreSmallIntegersFromTheSeedAndTheTensorName() {
        Program p = timesFour();
        try (Arena arena = Arena.ofConfined()) {
            double[] a = FuzzInputs.create(arena, p, 5).get("x").toDoubleArray();
            double[] b = FuzzInputs.create(arena, p, 5).get("x").toDoubleArray();
            double[] c = FuzzInputs.create(arena, p, 6).get("x").toDoubleArray();
            assertThat(a).containsExactly(b);
            assertThat(a).isNotEqualTo(c);
            for (double v : a) {
                assertThat(v).isBetween(-8.0, 8.0).isEqualTo(Math.rint(v));
            }
        }
    }
}
