package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The golden's matmuls against a triple loop. */
class Dsv4MatmulTest {

    @Property(tries = 60, seed = "7")
    void int8MatchesTheTripleLoopExactly(@ForAll @IntRange(min = 1, max = 13) int m,
                                         @ForAll @IntRange(min = 1, max = 40) int k,
                                         @ForAll @IntRange(min = 1, max = 70) int n,
                                         @ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] a = new byte[m * k];
        byte[] b = new byte[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) r.nextInt(-127, 128);
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) r.nextInt(-127, 128);
        }
        int[] c = Dsv4Matmul.i8(a, m, k, b, n);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                int s = 0;
                for (int x = 0; x < k; x++) {
                    s += a[i * k + x] * b[x * n + j];
                }
                assertThat(c[i * n + j]).isEqualTo(s);
            }
        }
    }

    @Property(tries = 60, seed = "7")
    void fp32MatchesTheSequentialLoopBitForBit(@ForAll @IntRange(min = 1, max = 20) int m,
                                              @ForAll @IntRange(min = 1, max = 600) int k,
                                              @ForAll @IntRange(min = 1, max = 1100) int n,
                                              @ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            // some exact zeros (the sequential loop adds their ±0 products; the kernel must give the same bits)
            a[i] = r.nextInt(8) == 0 ? (r.nextBoolean() ? 0f : -0f) : (float) r.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) r.nextGaussian();
        }
        float[] c = Dsv4Matmul.f32(a, m, k, b, n);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                float s = 0;
                for (int x = 0; x < k; x++) {
                    s += a[i * k + x] * b[x * n + j];
                }
                assertThat(c[i * n + j]).isEqualTo(s);
            }
        }
    }

    @Property(tries = 30, seed = "7")
    void transposesMoveEveryElement(@ForAll @IntRange(min = 1, max = 150) int rows,
                                    @ForAll @IntRange(min = 1, max = 150) int cols, @ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] f = new float[rows * cols];
        byte[] b = new byte[rows * cols];
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) r.nextGaussian();
            b[i] = (byte) r.nextInt(-128, 128);
        }
        float[] ft = Dsv4Matmul.transpose(f, rows, cols);
        byte[] bt = Dsv4Matmul.transpose(b, rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                assertThat(ft[j * rows + i]).isEqualTo(f[i * cols + j]);
                assertThat(bt[j * rows + i]).isEqualTo(b[i * cols + j]);
            }
        }
    }
}
