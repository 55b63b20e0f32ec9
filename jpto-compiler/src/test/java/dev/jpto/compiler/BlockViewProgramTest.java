package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
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
import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.BlockVars;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SPMD submits whose slices and index arguments move with the block, on a 2-D grid (blockDiv / blockMod). */
@Timeout(60)
class BlockViewProgramTest {
    @TempDir
    Path dir;

    /**
     * z = x + 1 over a grid of (rows/4) × 2 blocks of 4 × 16: block (r, c) reads x at (4r, 16c) through index
     * arguments and writes its own 4 × 16 view of z, both derived from the block index.
     */
    private static Program grid(int rows) {
        ProgramBuilder p = ProgramBuilder.program("block_views");
        TensorVar x = p.input("x", FP32, 16, 32);
        TensorVar z = p.output("z", FP32, 16, 32);
        KernelBuilder k = KernelBuilder.kernel("plus_one");
        KTensor xt = k.input("x", FP32, 2);
        KTensor yt = k.output("y", FP32, 2);
        KScalar r0 = k.scalar("r0");
        KScalar c0 = k.scalar("c0");
        KTile t = k.tile("t", FP32, 4, 16);
        k.load(t, xt, r0, c0).adds(t, t, 1).store(t, yt, 0, 0);
        KernelRef ref = p.aiv(k.build());
        Affine r = Orch.blockDiv(2);
        Affine c = Orch.blockMod(2);
        p.orchestrate(o -> o.submit(SubmitOptions.blocks(rows / 4 * 2), ref, in(x),
                outExisting(z.block(4, 16).at(r, c)), scalar(r.times(4)), scalar(c.times(16))));
        return p.build();
    }

    @Test
    void everyBlockWritesItsOwnViewInOneTask() throws Exception {
        Program program = grid(16);
        Compiler.compile(program, dir.resolve("wd"));
        CompiledProgram loaded = CompiledProgram.load(dir.resolve("wd"));
        assertThat(loaded.program().body()).isEqualTo(program.body());
        for (CompiledProgram compiled : new CompiledProgram[] {Compiler.compileInMemory(program), loaded}) {
            try (Arena arena = Arena.ofShared()) {
                Tensor x = Tensors.random(arena, 3, 16, 32);
                Tensor z = Tensor.allocate(arena, FP32, 16, 32);
                RunReport rep = Runner.run(compiled, Map.of("x", x, "z", z));
                assertThat(rep.tasksExecuted()).isEqualTo(1);
                for (long i = 0; i < z.numel(); i++) {
                    assertThat(z.getDouble(i)).as("element %d", i).isEqualTo((double) ((float) x.getDouble(i) + 1f));
                }
            }
        }
        assertThat(RingPlanner.plan(program).ring(0).tasks()).as("one task at the root scope").isEqualTo(1);
    }

    @Test
    void aViewPastTheTensorForTheLastBlockIsRefused() {
        // 10 blocks: block 8 is row 4 of a 4-row grid
        assertThatThrownBy(() -> grid(20)).isInstanceOf(VerificationException.class)
                .hasMessageContaining("block_idx_div_2");
    }

    @Test
    void aBlockVariableInAnInnerSliceIsRefused() {
        ProgramBuilder p = ProgramBuilder.program("inner_block_view");
        TensorVar x = p.input("x", FP32, 16, 32);
        TensorVar z = p.output("z", FP32, 16, 32);
        KernelBuilder k = KernelBuilder.kernel("copy");
        KTensor xt = k.input("x", FP32, 2);
        KTensor yt = k.output("y", FP32, 2);
        KTile t = k.tile("t", FP32, 4, 16);
        k.load(t, xt, 0, 0).store(t, yt, 0, 0);
        KernelRef ref = p.aiv(k.build());
        p.orchestrate(o -> o.submit(SubmitOptions.blocks(4), ref,
                in(x.block(4, 32).at(Orch.BLOCK_IDX, 0).at(0, 0).size(4, 16)), outExisting(z.at(0, 0).size(4, 16))));
        assertThatThrownBy(p::build).isInstanceOf(VerificationException.class)
                .hasMessageContaining("block variables may only move the outermost slice");
    }

    @Test
    void blockVariablesSplitTheIndexRowMajor() {
        assertThat(BlockVars.eval(Orch.blockDiv(3).times(10).plus(Orch.blockMod(3)), Map.of(), 7, 9, 0))
                .isEqualTo(2 * 10 + 1);
        assertThat(BlockVars.range(Orch.blockDiv(3), Map.of(), 9)).containsExactly(0, 2);
        assertThat(BlockVars.range(Orch.blockMod(4), Map.of(), 3)).containsExactly(0, 2);
        assertThat(BlockVars.range(Orch.blockMod(4).times(-1).plus(Orch.BLOCK_NUM), Map.of(), 9))
                .containsExactly(6, 9);
        assertThat(BlockVars.eval(Orch.blockDivMod(2, 3), Map.of(), 11, 12, 0)).isEqualTo(2);
        assertThat(BlockVars.range(Orch.blockDivMod(2, 3), Map.of(), 12)).containsExactly(0, 2);
        assertThat(BlockVars.range(Orch.blockDivMod(4, 3), Map.of(), 8)).containsExactly(0, 1);
        Affine mid = Orch.blockDivMod(2, 3).times(5).plus(1);
        assertThat(Affine.parse(mid.toString())).as("the work dir's text form").isEqualTo(mid);
        assertThat(BlockVars.is("block_idx_div_x")).isFalse();
        assertThat(BlockVars.is("block_idx_div_2_mod_0")).isFalse();
        assertThatThrownBy(() -> Orch.blockDiv(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("divisor must be >= 1, got 0");
    }
}
