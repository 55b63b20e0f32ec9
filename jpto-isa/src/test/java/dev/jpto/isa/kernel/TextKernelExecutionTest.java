package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Kernels written as text, parsed and executed, against references computed in double. */
class TextKernelExecutionTest {
    private static final String SOFTMAX = """
            kernel softmax_rows          # y = softmax(x) along each row, 4 rows per step
            tensor x: bf16 rank 2 read
            tensor y: fp32 rank 2 write
            scalar row_tiles
            scalar cols
            var i
            tile tx: bf16[4x64]
            tile f: fp32[4x64]
            tile m: fp32[4x1]
            tile s: fp32[4x1]

            loop i from 0 to row_tiles step 1:
              load tx, x[4*i, 0], 4, cols
              cast f, tx, rint
              max_rows m, f
              sub_rb f, f, m
              exp f, f
              sum_rows s, f
              div_rb f, f, s
              store f, y[4*i, 0]
            """;

    @Test
    void softmaxFromTextMatchesADoubleReference() {
        Kernel k = KernelText.parse(SOFTMAX);
        Kernels.validate(k);
        Arena arena = Arena.ofAuto();
        int rows = 12;
        int cols = 40; // not the tile width: the valid region carries it
        Tensor x = Tensor.allocate(arena, DType.BF16, rows, cols);
        Tensor y = Tensor.allocate(arena, DType.FP32, rows, cols);
        SplittableRandom rnd = new SplittableRandom(9);
        for (long i = 0; i < x.numel(); i++) {
            x.setDouble(i, rnd.nextDouble(-6, 6));
        }
        ExecStats stats = new KernelExecutor(new ScalarEngine()).execute(k, new Tensor[] {x, y},
                new double[] {rows / 4, cols});
        for (int r = 0; r < rows; r++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < cols; c++) {
                max = Math.max(max, x.getDouble((long) r * cols + c));
            }
            double sum = 0;
            for (int c = 0; c < cols; c++) {
                sum += Math.exp(x.getDouble((long) r * cols + c) - max);
            }
            double rowSum = 0;
            for (int c = 0; c < cols; c++) {
                double want = Math.exp(x.getDouble((long) r * cols + c) - max) / sum;
                double got = y.getDouble((long) r * cols + c);
                assertThat(got).isCloseTo(want, within(1e-6 * Math.max(want, 1e-3)));
                rowSum += got;
            }
            assertThat(rowSum).isCloseTo(1.0, within(1e-5));
        }
        // per row tile of 4x40: max 160, sub 160, exp 160, sum 160, div 160 flops
        assertThat(stats.flops()).isEqualTo(3L * 5 * 4 * cols);
        assertThat(stats.bytesLoaded()).isEqualTo(2L * rows * cols);
        assertThat(stats.bytesStored()).isEqualTo(4L * rows * cols);
        assertThat(KernelText.parse(KernelText.print(k))).isEqualTo(k);
    }
}
