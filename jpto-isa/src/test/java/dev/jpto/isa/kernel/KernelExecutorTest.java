package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.kernel.TensorParam.Access;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KernelExecutorTest {
    private final Arena arena = Arena.ofAuto();

    /**
     * C[64×N] = A[64×K]·B[K×N] in 16×16 tiles over a 32-wide K step; scalar params kTiles and nTiles.
     * Registers: 0 kTiles, 1 nTiles, 2 j (column tile), 3 p (k tile).
     */
    static Kernel tiledMatmul() {
        Idx j16 = Idx.slot(2, 16, 0);
        return new Kernel("tiled_matmul",
                List.of(new TensorParam("a", DType.FP32, 2, Access.READ), new TensorParam("b", DType.FP32, 2, Access.READ),
                        new TensorParam("c", DType.FP32, 2, Access.WRITE)),
                List.of(new ScalarDecl("k_tiles", true), new ScalarDecl("n_tiles", true), new ScalarDecl("j", false),
                        new ScalarDecl("p", false)),
                List.of(new TileDecl("ta", DType.FP32, 16, 32), new TileDecl("tb", DType.FP32, 32, 16),
                        new TileDecl("tc", DType.FP32, 16, 16)),
                List.of(new TileOp.Loop(2, Idx.of(0), Idx.slot(1, 1, 0), 1, List.of(
                        new TileOp.Fill(2, Scalar.imm(0)),
                        new TileOp.Loop(3, Idx.of(0), Idx.slot(0, 1, 0), 1, List.of(
                                new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.slot(3, 32, 0)), Idx.of(16), Idx.of(32)),
                                new TileOp.Load(1, 1, List.of(Idx.slot(3, 32, 0), j16), Idx.of(32), Idx.of(16)),
                                new TileOp.MatMul(2, 0, 1, false, true))),
                        new TileOp.Store(2, 2, List.of(Idx.of(0), j16))))));
    }

    private Tensor random(SplittableRandom rnd, long rows, long cols) {
        Tensor t = Tensor.allocate(arena, DType.FP32, rows, cols);
        for (long i = 0; i < t.numel(); i++) {
            t.setDouble(i, rnd.nextInt(-8, 9)); // small integers: fp32 sums are exact
        }
        return t;
    }

    @Test
    void runsATiledMatmulWithLoopsAndCountsWork() {
        SplittableRandom rnd = new SplittableRandom(1);
        int k = 96;
        int n = 48;
        Tensor a = random(rnd, 16, k);
        Tensor b = random(rnd, k, n);
        Tensor c = Tensor.allocate(arena, DType.FP32, 16, n);
        KernelExecutor ex = new KernelExecutor(new ScalarEngine());
        Kernel kernel = tiledMatmul();
        ExecStats stats = ex.execute(kernel, new Tensor[] {a, b, c}, new double[] {k / 32, n / 16});
        for (int i = 0; i < 16; i++) {
            for (int j = 0; j < n; j++) {
                double want = 0;
                for (int p = 0; p < k; p++) {
                    want += a.getDouble((long) i * k + p) * b.getDouble((long) p * n + j);
                }
                assertThat(c.getDouble((long) i * n + j)).isEqualTo(want);
            }
        }
        assertThat(stats.flops()).isEqualTo(2L * 16 * n * k);
        // A (16×k) is loaded once per column tile, B (k×n) once in all; 4 bytes per element
        assertThat(stats.bytesLoaded()).isEqualTo(4L * (16L * k * (n / 16) + (long) k * n));
        assertThat(stats.bytesStored()).isEqualTo(4L * 16 * n);
        assertThat(stats.ops()).isEqualTo((n / 16) * (2 + 3 * (k / 32)));
        // second run reuses the tiles and gives the same answer and counts
        Tensor c2 = Tensor.allocate(arena, DType.FP32, 16, n);
        assertThat(ex.execute(kernel, new Tensor[] {a, b, c2}, new double[] {k / 32, n / 16})).isEqualTo(stats);
        assertThat(c2.toDoubleArray()).isEqualTo(c.toDoubleArray());
    }

    @Test
    void validRegionsAreResetPerExecution() {
        // load a 2x3 region into a 4x4 tile, then store the whole valid region: a fresh call must start from 4x4
        Kernel k = new Kernel("partial",
                List.of(new TensorParam("x", DType.INT32, 2, Access.READ), new TensorParam("y", DType.INT32, 2, Access.WRITE)),
                List.of(new ScalarDecl("rows", true)),
                List.of(new TileDecl("t", DType.INT32, 4, 4)),
                List.of(new TileOp.Fill(0, Scalar.imm(7)),
                        new TileOp.Store(0, 1, List.of(Idx.of(0), Idx.of(0))),
                        new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.of(0)), Idx.slot(0, 1, 0), Idx.of(3)),
                        new TileOp.Store(0, 1, List.of(Idx.of(0), Idx.of(0)))));
        KernelExecutor ex = new KernelExecutor(new ScalarEngine());
        Tensor x = Tensor.allocate(arena, DType.INT32, 4, 4);
        Tensor y = Tensor.allocate(arena, DType.INT32, 4, 4);
        for (int run = 0; run < 2; run++) {
            ExecStats s = ex.execute(k, new Tensor[] {x, y}, new double[] {2});
            // the fill covered 4x4 (valid region reset), the load overwrote the top-left 2x3
            assertThat(y.toDoubleArray()).containsExactly(0, 0, 0, 7, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7);
            assertThat(s.bytesLoaded()).isEqualTo(2 * 3 * 4);
            assertThat(s.bytesStored()).isEqualTo((16 + 6) * 4);
            assertThat(s.flops()).isZero();
        }
    }

    @Test
    void argumentErrorsNameTheKernelAndParameter() {
        KernelExecutor ex = new KernelExecutor(new ScalarEngine());
        Kernel k = tiledMatmul();
        Tensor f = Tensor.allocate(arena, DType.FP32, 16, 32);
        Tensor bf = Tensor.allocate(arena, DType.BF16, 32, 16);
        assertThatThrownBy(() -> ex.execute(k, new Tensor[] {f, f}, new double[] {1, 1}))
                .hasMessage("kernel tiled_matmul takes 3 tensor arguments [a, b, c], got 2");
        assertThatThrownBy(() -> ex.execute(k, new Tensor[] {f, bf, f}, new double[] {1, 1}))
                .hasMessage("kernel tiled_matmul: tensor parameter b (#1) must be fp32 of rank 2, got bf16[32, 16] (rank 2)");
        assertThatThrownBy(() -> ex.execute(k, new Tensor[] {f, f, f.reshape(512)}, new double[] {1, 1}))
                .hasMessageContaining("tensor parameter c (#2) must be fp32 of rank 2, got fp32[512] (rank 1)");
        assertThatThrownBy(() -> ex.execute(k, new Tensor[] {f, f, f}, new double[] {1}))
                .hasMessage("kernel tiled_matmul takes 2 scalar parameters [k_tiles, n_tiles], got 1");
    }

    @Test
    void opErrorsNameTheKernelAndOpPosition() {
        KernelExecutor ex = new KernelExecutor(new ScalarEngine());
        Tensor a = Tensor.allocate(arena, DType.FP32, 16, 32);
        Tensor b = Tensor.allocate(arena, DType.FP32, 32, 16);
        Tensor c = Tensor.allocate(arena, DType.FP32, 16, 16);
        // two k tiles, but A has only one: the second load of A runs out of the tensor
        assertThatThrownBy(() -> ex.execute(tiledMatmul(), new Tensor[] {a, b, c}, new double[] {2, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("kernel tiled_matmul: op #0.1.0 (load): load: region 16x32 at offsets [0, 32]");
    }

    private static Kernel withBody(List<ScalarDecl> scalars, List<TileOp> body) {
        return new Kernel("bad", List.of(new TensorParam("x", DType.FP32, 2, Access.READ)), scalars,
                List.of(new TileDecl("f", DType.FP32, 8, 8), new TileDecl("h", DType.BF16, 8, 8),
                        new TileDecl("m", DType.BOOL, 8, 8), new TileDecl("i", DType.INT32, 8, 1)),
                body);
    }

    @Test
    void validateNamesKernelOpAndOperand() {
        List<ScalarDecl> s = List.of(new ScalarDecl("n", true), new ScalarDecl("i", false), new ScalarDecl("j", false));
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Copy(0, 9)))))
                .hasMessage("kernel bad: op #0 (copy): operand src tile index 9 is out of range (the kernel declares 4 tiles)");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Binary(Fn.Binary.ADD, 0, 0, 1)))))
                .hasMessage("kernel bad: op #0 (add): operand b must be fp32 to match a (tile f fp32[8x8]), got tile h bf16[8x8]");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Loop(0, Idx.of(0), Idx.of(2), 1, List.of())))))
                .hasMessage("kernel bad: op #0 (loop): loop slot register 0 is scalar parameter n, not a loop variable");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Fill(0, Scalar.slot(1))))))
                .hasMessage("kernel bad: op #0 (fill): operand value loop variable i is used outside its loop");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Loop(1, Idx.of(0), Idx.of(2), 1,
                List.of(new TileOp.Loop(1, Idx.of(0), Idx.of(2), 1, List.of())))))))
                .hasMessage("kernel bad: op #0.0 (loop): loop slot loop variable i is already bound by an enclosing loop");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Loop(1, Idx.of(0), Idx.of(2), 1,
                List.of(new TileOp.Unary(Fn.Unary.EXP, 0, 0), new TileOp.Load(0, 0, List.of(Idx.of(0)), Idx.of(1), Idx.of(1))))))))
                .hasMessage("kernel bad: op #0.1 (load): operand offsets tensor x has rank 2 and needs 2 offsets, got 1");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Load(0, 0, List.of(Idx.slot(5, 1, 0), Idx.of(0)),
                Idx.of(1), Idx.of(1))))))
                .hasMessage("kernel bad: op #0 (load): operand offsets[0] scalar register 5 is out of range (the kernel declares 3 scalar registers)");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.of(0)),
                Idx.of(9), Idx.of(1))))))
                .hasMessage("kernel bad: op #0 (load): operand valid_rows must be in [0, 8] (the tile's capacity), got 9");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.MatMul(1, 1, 1, false, false)))))
                .hasMessage("kernel bad: op #0 (matmul): operand c must be fp32, got tile h bf16[8x8]");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.TopK(0, 3, 0, 2)))))
                .hasMessageContaining("operand values/indices must have at least k=2 columns");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Select(0, 0, 0, 0)))))
                .hasMessage("kernel bad: op #0 (select): operand mask must be bool, got tile f fp32[8x8]");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Unary(Fn.Unary.LOG, 3, 3)))))
                .hasMessage("kernel bad: op #0 (log): operand src must be a float tile (fp32, fp16, bf16), got tile i int32[8x1]");
        assertThatThrownBy(() -> Kernels.validate(withBody(s, List.of(new TileOp.Compare(Fn.Compare.LT, 0, 0, 0)))))
                .hasMessage("kernel bad: op #0 (cmp_lt): operand dst must be bool, got tile f fp32[8x8]");
        // a valid kernel passes, including a loop variable used in its own loop body
        Kernels.validate(withBody(s, List.of(new TileOp.Loop(1, Idx.of(0), Idx.slot(0, 1, 0), 1, List.of(
                new TileOp.Load(0, 0, List.of(Idx.slot(1, 8, 0), Idx.of(0)), Idx.of(8), Idx.of(8)),
                new TileOp.Compare(Fn.Compare.LT, 2, 0, 0), new TileOp.Select(0, 2, 0, 0))))));
    }

    @Test
    void executionValidatesFirst() {
        KernelExecutor ex = new KernelExecutor(new ScalarEngine());
        Kernel bad = withBody(List.of(), List.of(new TileOp.Copy(0, 1)));
        assertThatThrownBy(() -> ex.execute(bad, new Tensor[] {Tensor.allocate(arena, DType.FP32, 1, 1)}, new double[0]))
                .hasMessage("kernel bad: op #0 (copy): operand dst must be bf16 to match src (tile h bf16[8x8]), got tile f fp32[8x8]");
    }
}
