package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.IrPrinter;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.compiler.launch.DryRun;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Orchestration-time reads as loop bounds: the trip count follows the data a kernel wrote. */
@Timeout(60)
class DataDependentLoopTest {
    @TempDir
    Path dir;

    private static Tensor scores(Arena arena, int positives) {
        Tensor s = Tensor.allocate(arena, DType.FP32, 1, 16);
        for (int j = 0; j < 16; j++) {
            // positives spread over the row, the rest negative or zero (not counted)
            s.setDouble(j, j % 16 < positives ? 0.5 + j : (j % 2 == 0 ? -1.0 : 0.0));
        }
        return s;
    }

    private static void checkRows(Tensor x, Tensor y, int positives) {
        for (int r = 0; r < 64; r++) {
            for (int c = 0; c < 16; c++) {
                double want = r < 4 * positives ? (double) ((float) x.getDouble(r * 16L + c) + 1f) : -7.0;
                assertThat(y.getDouble(r * 16L + c)).as("y[%d,%d] with %d positive scores", r, c, positives)
                        .isEqualTo(want);
            }
        }
    }

    @Test
    void tripCountFollowsTheDataInMemoryAndThroughTheWorkDir() throws Exception {
        Program program = TestPrograms.positiveRowsPlusOne();
        CompiledProgram inMemory = Compiler.compileInMemory(program);
        Compiler.compile(program, dir.resolve("wd"));
        CompiledProgram loaded = CompiledProgram.load(dir.resolve("wd"));
        for (CompiledProgram compiled : new CompiledProgram[] {inMemory, loaded}) {
            for (int positives : new int[] {0, 3, 16}) {
                try (Arena arena = Arena.ofShared()) {
                    Tensor x = Tensors.random(arena, positives, 64, 16);
                    Tensor y = Tensor.allocate(arena, DType.FP32, 64, 16);
                    for (long i = 0; i < y.numel(); i++) {
                        y.setDouble(i, -7.0);
                    }
                    RunReport rep = Runner.run(compiled, Map.of("x", x, "s", scores(arena, positives), "y", y));
                    assertThat(rep.tasksExecuted()).isEqualTo(1 + positives);
                    checkRows(x, y, positives);
                }
            }
        }
        assertThat(IrPrinter.print(program)).contains("k = read(count) in [0, 16]")
                .contains("for i in range(0, k)");
    }

    @Test
    void theRingPlanAndTheDryRunTakeEachReadAtItsBound() {
        Program program = TestPrograms.positiveRowsPlusOne();
        CompiledProgram compiled = Compiler.compileInMemory(program);
        assertThat(RingPlanner.plan(program).ring(0).tasks()).as("1 count task + 16 row tasks").isEqualTo(17);
        RunReport dry = DryRun.run(compiled, RunConfig.defaults());
        assertThat(dry.tasksExecuted()).isEqualTo(17);
    }

    @Test
    void aValueAboveTheDeclaredBoundFailsTheRunNamingTheRead() {
        ProgramBuilder p = ProgramBuilder.program("read_input");
        TensorVar n = p.input("n", DType.INT32, 2);
        TensorVar y = p.output("y", DType.FP32, 64, 16);
        var copy = p.aiv(plusOneKernel());
        p.orchestrate(o -> {
            var k = o.read("k", n.at(1).size(1), 3);
            o.forRange("i", k, i -> o.submit(copy, dev.jpto.compiler.dsl.TaskArg.in(y.block(4, 16).at(i, 0)),
                    dev.jpto.compiler.dsl.TaskArg.outExisting(y.block(4, 16).at(i.plus(8), 0))));
        });
        CompiledProgram compiled = Compiler.compileInMemory(p.build());
        try (Arena arena = Arena.ofShared()) {
            Tensor nt = Tensor.allocate(arena, DType.INT32, 2);
            Tensor yt = Tensor.allocate(arena, DType.FP32, 64, 16);
            nt.setDouble(1, 2);
            assertThat(Runner.run(compiled, Map.of("n", nt, "y", yt)).tasksExecuted()).isEqualTo(2);
            nt.setDouble(1, 4);
            assertThatThrownBy(() -> Runner.run(compiled, Map.of("n", nt, "y", yt)))
                    .isInstanceOf(ChipRuntimeException.class)
                    .hasMessageContaining("read 'k'").hasMessageContaining("gave 4")
                    .hasMessageContaining("[0, 3]");
        }
    }

    @Test
    void theVerifierChecksReads() {
        ProgramBuilder p = ProgramBuilder.program("bad_reads");
        TensorVar f = p.input("f", DType.FP32, 2);
        TensorVar n = p.input("n", DType.INT32, 2);
        TensorVar y = p.output("y", DType.FP32, 64, 16);
        var copy = p.aiv(plusOneKernel());
        p.orchestrate(o -> {
            o.read("a", f.at(0).size(1), 4);
            o.read("b", n, 4);
            o.read("c", n.at(0).size(1), -1);
            o.forRange("i", 2, i -> o.read("i", n.at(0).size(1), 1));
            o.scope(() -> o.read("inner", n.at(1).size(1), 2));
            o.forRange("j", 1, j -> o.submit(copy, dev.jpto.compiler.dsl.TaskArg.in(
                    y.block(4, 16).at(j, 0)), dev.jpto.compiler.dsl.TaskArg.outExisting(
                    y.block(4, 16).at(dev.jpto.compiler.ir.Affine.var("inner"), 0))));
        });
        assertThatThrownBy(p::build).isInstanceOf(VerificationException.class)
                .hasMessageContaining("dtype fp32 is not an integer type")
                .hasMessageContaining("a read takes one element, but the view has shape [2]")
                .hasMessageContaining("read bound must be >= 0")
                .hasMessageContaining("shadows an enclosing loop or read variable")
                .hasMessageContaining("uses 'inner', which is not an enclosing loop variable");
    }

    private static dev.jpto.isa.kernel.Kernel plusOneKernel() {
        var a = dev.jpto.compiler.dsl.KernelBuilder.kernel("plus_one");
        var x = a.input("x", DType.FP32, 2);
        var yk = a.output("y", DType.FP32, 2);
        var t = a.tile("t", DType.FP32, 4, 16);
        a.load(t, x, 0, 0).adds(t, t, 1).store(t, yk, 0, 0);
        return a.build();
    }
}
