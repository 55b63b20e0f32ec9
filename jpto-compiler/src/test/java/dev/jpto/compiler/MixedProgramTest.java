package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.IrPrinter;
import dev.jpto.compiler.ir.MixedLanes;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mixed submits (one cube kernel and up to two vector kernels per block, the original's {@code MixedKernels}) and
 * {@code require_sync_start}: DSL, IR, verifier, work dir, plan and run, checked against scalar loops.
 */
@Timeout(60)
class MixedProgramTest {
    private static final int ROWS = 16;

    @TempDir
    Path dir;

    /**
     * Cube lane: h[r0 .. r0+16) = x[r0 .. r0+16) @ w; r0 = 16 * block. The lanes share the parameters x, w (in),
     * h, y (out), r0, r1 (row offsets), each using some of them.
     */
    private static KernelBuilder cube() {
        KernelBuilder k = KernelBuilder.kernel("mm");
        KTensor x = k.input("x", FP32, 2);
        KTensor w = k.input("w", FP32, 2);
        KTensor h = k.output("h", FP32, 2);
        k.output("y", FP32, 2);
        KScalar r0 = k.scalar("r0");
        k.scalar("r1");
        KTile a = k.tile("a", FP32, ROWS, 16);
        KTile b = k.tile("b", FP32, 16, 16);
        KTile c = k.tile("c", FP32, ROWS, 16);
        k.load(a, x, r0, 0).load(b, w, 0, 0).matmul(c, a, b).store(c, h, r0, 0);
        return k;
    }

    /** Vector lane: y[r1 .. r1+8) = h[r1 .. r1+8) * scale + sub-block; r1 = 16 * block + 8 * sub-block. */
    private static KernelBuilder vector(String name, double scale) {
        KernelBuilder k = KernelBuilder.kernel(name);
        k.input("x", FP32, 2);
        k.input("w", FP32, 2);
        KTensor h = k.input("h", FP32, 2);
        KTensor y = k.output("y", FP32, 2);
        k.scalar("r0");
        KScalar r1 = k.scalar("r1");
        KTile t = k.tile("t", FP32, ROWS / 2, 16);
        k.load(t, h, r1, 0).muls(t, t, scale).store(t, y, r1, 0);
        return k;
    }

    /** y = (x @ w) * 2 on rows of even half-blocks, * 3 on odd ones: one mixed task of {@code blocks} blocks. */
    private static Program mixed(int blocks, boolean sync, boolean bothVectorLanes) {
        ProgramBuilder p = ProgramBuilder.program("mixed_mm");
        TensorVar x = p.input("x", FP32, ROWS * blocks, 16);
        TensorVar w = p.input("w", FP32, 16, 16);
        TensorVar y = p.output("y", FP32, ROWS * blocks, 16);
        KernelRef mm = p.aic(cube().build());
        KernelRef v0 = p.aiv(vector("post0", 2).build());
        KernelRef v1 = bothVectorLanes ? p.aiv(vector("post1", 3).build()) : null;
        p.orchestrate(o -> {
            TensorVar h = o.alloc("h", FP32, ROWS * blocks, 16);
            SubmitOptions options = SubmitOptions.blocks(blocks);
            o.submitMixed(sync ? options.syncStart() : options, mm, v0, v1, in(x), in(w), out(h), outExisting(y),
                    scalar(Orch.BLOCK_IDX.times(ROWS)),
                    scalar(Orch.BLOCK_IDX.times(ROWS).plus(Orch.SUB_BLOCK_IDX.times(ROWS / 2))));
        });
        return p.build();
    }

    /** The scalar reference: (x @ w) * scale of the row's half-block (2 for sub-block 0, 3 for 1). */
    private static double expected(Tensor x, Tensor w, int row, int col, boolean bothVectorLanes) {
        double acc = 0;
        for (int k = 0; k < 16; k++) {
            acc += x.getDouble(row * 16L + k) * w.getDouble(k * 16L + col);
        }
        boolean odd = row % ROWS >= ROWS / 2;
        return odd ? (bothVectorLanes ? 3 * acc : 0) : 2 * acc;
    }

    @Test
    void aMixedTaskRunsItsLanesPerBlockInMemoryAndFromTheWorkDir() throws Exception {
        Program program = mixed(4, true, true);
        assertThat(IrPrinter.print(program)).contains("submit mm+post0+post1 on mix(").contains("blocks 4 sync_start");
        Compiler.compile(program, dir.resolve("wd"));
        assertThat(Files.readString(dir.resolve("wd").resolve("orchestration.json")).replaceAll("\\s", ""))
                .contains("\"core\":\"mix\",\"lanes\":{\"aic\":\"mm\",\"aiv0\":\"post0\",\"aiv1\":\"post1\"}",
                        "\"require_sync_start\":true");
        CompiledProgram loaded = CompiledProgram.load(dir.resolve("wd"));
        assertThat(loaded.program().body()).isEqualTo(program.body());
        for (CompiledProgram compiled : new CompiledProgram[] {Compiler.compileInMemory(program), loaded}) {
            check(compiled, 4, true);
        }
    }

    @Test
    void anInactiveLaneLeavesItsRowsAlone() {
        check(Compiler.compileInMemory(mixed(3, false, false)), 3, false);
    }

    private static void check(CompiledProgram compiled, int blocks, boolean bothVectorLanes) {
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensors.random(arena, 7, ROWS * blocks, 16);
            Tensor w = Tensors.random(arena, 8, 16, 16);
            Tensor y = Tensor.allocate(arena, FP32, ROWS * blocks, 16);
            RunReport rep = Runner.run(compiled, Map.of("x", x, "w", w, "y", y));
            assertThat(rep.tasksExecuted()).as("one task, whatever its blocks and lanes").isEqualTo(1);
            for (int r = 0; r < ROWS * blocks; r++) {
                for (int c = 0; c < 16; c++) {
                    assertThat(y.getDouble(r * 16L + c)).as("y[%d][%d]", r, c)
                            .isCloseTo(expected(x, w, r, c, bothVectorLanes), Offset.offset(1e-3));
                }
            }
        }
    }

    @Test
    void thePlanCountsAMixedTaskAsOneSlot() {
        RingPlan plan = RingPlanner.plan(mixed(8, false, true));
        assertThat(plan.ring(0).tasks()).isEqualTo(1);
    }

    @Test
    void moreSyncStartBlocksThanClustersFailWithCode7() {
        // a2a3sim has 24 clusters: 25 blocks that must start together can never all start
        CompiledProgram compiled = Compiler.compileInMemory(mixed(25, true, true));
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> args = Map.of("x", Tensors.random(arena, 7, ROWS * 25, 16),
                    "w", Tensors.random(arena, 8, 16, 16), "y", Tensor.allocate(arena, FP32, ROWS * 25, 16));
            assertThatThrownBy(() -> Runner.run(compiled, args)).isInstanceOf(ChipRuntimeException.class)
                    .satisfies(e -> assertThat(((ChipRuntimeException) e).error())
                            .isEqualTo(ErrorCode.REQUIRE_SYNC_START_INVALID))
                    .hasMessageContaining("require_sync_start block_num=25 > limit=24 (deadlock guaranteed)");
        }
        // without sync start the same 25 blocks just queue for clusters
        check(Compiler.compileInMemory(mixed(25, false, true)), 25, true);
    }

    @Test
    void theVerifierChecksEachLaneAgainstItsCoreAndTheSharedArguments() {
        ProgramBuilder p = ProgramBuilder.program("bad_mixed");
        TensorVar x = p.input("x", FP32, 32, 16);
        TensorVar w = p.input("w", FP32, 16, 16);
        TensorVar y = p.output("y", FP32, 32, 16);
        KernelRef mm = p.aic(cube().build());
        KernelRef v0 = p.aiv(vector("post0", 2).build());
        p.orchestrate(o -> {
            TensorVar h = o.alloc("h", FP32, 32, 16);
            // 3 blocks: the cube lane of block 2 reads rows 32..47 of a 32-row x
            o.submitMixed(SubmitOptions.blocks(3), mm, v0, null, in(x), in(w), out(h), outExisting(y),
                    scalar(Orch.BLOCK_IDX.times(ROWS)), scalar(Orch.SUB_BLOCK_IDX));
        });
        assertThatThrownBy(p::build).isInstanceOf(VerificationException.class)
                .hasMessageContaining("lane aic").hasMessageContaining("kernel mm op #0 (load) reads x");
        // the DSL refuses a vector kernel in the cube lane
        ProgramBuilder q = ProgramBuilder.program("wrong_core");
        KernelRef v = q.aiv(vector("post0", 2).build());
        assertThatThrownBy(() -> q.orchestrate(o -> o.submitMixed(SubmitOptions.NONE, v, null, null)))
                .hasMessageContaining("mixed lane aic needs a kernel registered for AIC, but post0 is registered "
                        + "for AIV");

        // in IR: a vector kernel in the cube lane, missing arguments, sub_block_idx outside a mixed submit
        Program good = mixed(2, false, true);
        Stmt.Submit sub = (Stmt.Submit) good.body().get(1);
        Stmt.Submit swapped = Stmt.Submit.mixed(new MixedLanes("post0", "mm", null), sub.args(), 2, null, List.of(),
                false);
        Stmt.Submit plain = new Stmt.Submit("post0", CoreType.AIV, sub.args(), 2, null, List.of());
        Program bad = new Program(good.name(), good.inputs(), good.outputs(), good.kernels(), List.of(
                good.body().get(0), sub.withArgs(List.of()), swapped, plain));
        assertThat(Verifier.check(bad)).map(Object::toString)
                .anyMatch(f -> f.contains("lane aic: kernel 'mm' takes 4 tensor and 2 scalar arguments"))
                .anyMatch(f -> f.contains("mixed lane aic: kernel post0 has no matmul"))
                .anyMatch(f -> f.contains("mixed lane aiv0: kernel mm has a matmul"))
                .anyMatch(f -> f.contains("uses sub_block_idx, which only a mixed submit's lanes have"));
    }
}
