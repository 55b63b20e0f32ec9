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
                                              @ForAll @IntRange(min = 1, max = 40) int k,
                                              @ForAll @IntRange(min = 1, max = 1100) int n,
                                              @ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) r.nextGaussian();
        }
        float[] c = Dsv4Matmul.f32(a, m, k, b, n);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j += 7) {
                float s = 0;
                for (int x = 0; x < k; x++) {
                    s += a[i * k + x] * b[x * n + j];
                }
                assertThat(c[i * n + j]).isEqualTo(s);
            }
        }
    }
}
