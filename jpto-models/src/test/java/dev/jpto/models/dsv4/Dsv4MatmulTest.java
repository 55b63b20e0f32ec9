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

    @Property(tries = 40, seed = "11")
    void viewsReadWeightsInPlaceWithTheSameBits(@ForAll @IntRange(min = 1, max = 9) int m,
                                                @ForAll @IntRange(min = 1, max = 300) int k,
                                                @ForAll @IntRange(min = 1, max = 100) int n,
                                                @ForAll @IntRange(min = 0, max = 7) int pad,
                                                @ForAll long seed) {
        // A: rows of width k + pad at column offset pad; W: [n, k + pad] whose columns pad.. are Bᵀ
        SplittableRandom r = new SplittableRandom(seed);
        int lda = k + pad;
        float[] a = new float[m * lda + pad];
        byte[] a8 = new byte[a.length];
        float[] w = new float[n * lda];
        byte[] w8 = new byte[w.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextGaussian();
            a8[i] = (byte) r.nextInt(-128, 128);
        }
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) r.nextGaussian();
            w8[i] = (byte) r.nextInt(-128, 128);
        }
        float[] c = Dsv4Matmul.f32(a, pad, lda, m, Dsv4Matmul.F32B.transposed(w, pad, n, k, lda), r.nextBoolean());
        int[] c8 = Dsv4Matmul.i8(a8, pad, lda, m, Dsv4Matmul.I8B.transposed(w8, pad, n, k, lda));
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                float s = 0;
                int s8 = 0;
                for (int x = 0; x < k; x++) {
                    s += a[pad + i * lda + x] * w[j * lda + pad + x];
                    s8 += a8[pad + i * lda + x] * w8[j * lda + pad + x];
                }
                assertThat(c[i * n + j]).isEqualTo(s);
                assertThat(c8[i * n + j]).isEqualTo(s8);
            }
        }
    }

    @Property(tries = 6, seed = "5")
    void int8SumsPastTheExactFp32RangeStayExact(@ForAll @IntRange(min = 1, max = 5) int m,
                                                @ForAll @IntRange(min = 1025, max = 3100) int k,
                                                @ForAll @IntRange(min = 33, max = 70) int n,
                                                @ForAll long seed) {
        // mostly -128 · -128 = 2^14 products: a K-chunk of 1024 reaches 2^24 exactly, the whole row 2^24 · 3
        SplittableRandom r = new SplittableRandom(seed);
        byte[] a = new byte[m * k];
        byte[] b = new byte[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextInt(10) == 0 ? (byte) r.nextInt(-128, 128) : (byte) -128;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = r.nextInt(10) == 0 ? (byte) r.nextInt(-128, 128) : (byte) -128;
        }
        int[] c = Dsv4Matmul.i8(a, m, k, b, n);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                int s = 0;
                for (int x = 0; x < k; x++) {
                    s += a[i * k + x] * b[x * n + j];
                }
                assertThat(c[i * n + j]).as("C[%d,%d]", i, j).isEqualTo(s);
            }
        }
    }
}
