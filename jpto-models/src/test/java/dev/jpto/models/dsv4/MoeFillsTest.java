package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** The routed weight's one-pass, parallel generation against a scalar restatement of its rule. */
class MoeFillsTest {
    private static final int E = 3;
    private static final int OUT = 70; // 210 rows: four 64-row blocks, the last partial
    private static final int IN = 80;  // a partial 32-group at the end
    private static final double STD = 0.0108;

    private static Init.Context context(long seed) {
        return FillContexts.context(seed);
    }

    private static void fill(Init init, Tensor t, long seed) {
        FillContexts.fill(init, t, seed);
    }

    private static Tensor codes(Arena a) {
        return Tensor.allocate(a, DType.INT8, new long[] {E, OUT, IN});
    }

    private static Tensor scales(Arena a) {
        return Tensor.allocate(a, DType.FP32, new long[] {E, OUT});
    }

    @Test
    void codesAndScalesFollowTheRuleRowByRow() {
        try (Arena a = Arena.ofConfined()) {
            MoeFills.RoutedWeight w = MoeFills.routedWeight("routed_w1@r0", E, OUT, IN, STD);
            Tensor q = codes(a);
            Tensor s = scales(a);
            fill(w.codes(), q, 5);
            fill(w.scales(), s, 5);
            double[] rowScale = new double[E * OUT];
            double sum = 0;
            double sumSq = 0;
            for (int row = 0; row < E * OUT; row++) {
                Init.RandomSource r = Dsv4Inputs.source(5, "routed_w1@r0/" + row);
                double[] v = new double[IN];
                for (int k = 0; k < IN; k++) {
                    v[k] = r.normal();
                }
                for (int g = 0; g < IN; g += 32) { // restated with pow/log: the grid scale is a power of two
                    double amax = 0;
                    for (int k = g; k < Math.min(IN, g + 32); k++) {
                        amax = Math.max(amax, Math.abs(v[k]));
                    }
                    double gs = Math.pow(2, Math.ceil(Math.log(amax / 6) / Math.log(2)));
                    for (int k = g; k < Math.min(IN, g + 32); k++) {
                        double m = Math.abs(v[k]) / gs;
                        double mag = m <= 0.25 ? 0 : m <= 0.75 ? 0.5 : m <= 1.25 ? 1 : m <= 1.75 ? 1.5
                                : m <= 2.5 ? 2 : m <= 3.5 ? 3 : m <= 5 ? 4 : 6;
                        v[k] = Math.signum(v[k]) * mag * gs;
                    }
                }
                double amax = 0;
                for (double x : v) {
                    amax = Math.max(amax, Math.abs(x));
                }
                rowScale[row] = (float) (amax / 127);
                for (int k = 0; k < IN; k++) {
                    int code = (int) Math.rint(v[k] / rowScale[row]);
                    assertThat((int) q.getDouble((long) row * IN + k)).as("row %d k %d", row, k).isEqualTo(code);
                    sum += code * rowScale[row];
                    sumSq += code * rowScale[row] * code * rowScale[row];
                }
            }
            double n = E * OUT * IN;
            double std = Math.sqrt((sumSq - sum * sum / n) / (n - 1));
            for (int row = 0; row < E * OUT; row++) {
                assertThat(s.getDouble(row)).isCloseTo(rowScale[row] * STD / std, within(1e-6 * s.getDouble(row)));
            }
        }
    }

    @Test
    void scalesAloneEqualScalesAfterCodesAndFollowTheSeed() {
        try (Arena a = Arena.ofConfined()) {
            Tensor alone = scales(a); // first: no codes pass ran for this stream and seed, so a scales-only pass
            fill(MoeFills.routedWeight("routed_w2@r7", E, OUT, IN, STD).scales(), alone, 11);
            MoeFills.RoutedWeight w = MoeFills.routedWeight("routed_w2@r7", E, OUT, IN, STD);
            Tensor after = scales(a);
            fill(w.codes(), codes(a), 11);
            fill(w.scales(), after, 11);
            Tensor otherSeed = scales(a);
            fill(w.scales(), otherSeed, 12); // must not be seed 11's scales
            for (int i = 0; i < E * OUT; i++) {
                assertThat(alone.getDouble(i)).isEqualTo(after.getDouble(i));
            }
            assertThat(otherSeed.getDouble(0)).isNotEqualTo(after.getDouble(0));
        }
    }

    @Test
    void identicalBitsOnOneThreadAndOnThePool() throws Exception {
        try (Arena a = Arena.ofShared()) {
            Tensor q1 = codes(a);
            Tensor s1 = scales(a);
            ForkJoinPool one = new ForkJoinPool(1);
            try {
                one.submit(() -> {
                    MoeFills.RoutedWeight w = MoeFills.routedWeight("w", E, OUT, IN, STD);
                    fill(w.codes(), q1, 3);
                    fill(w.scales(), s1, 3);
                }).get(60, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                one.shutdown();
            }
            Tensor q2 = codes(a);
            Tensor s2 = scales(a);
            MoeFills.RoutedWeight w = MoeFills.routedWeight("w", E, OUT, IN, STD);
            fill(w.codes(), q2, 3);
            fill(w.scales(), s2, 3);
            for (long i = 0; i < q1.numel(); i++) {
                assertThat(q2.getDouble(i)).isEqualTo(q1.getDouble(i));
            }
            for (long i = 0; i < s1.numel(); i++) {
                assertThat(Double.doubleToRawLongBits(s2.getDouble(i)))
                        .isEqualTo(Double.doubleToRawLongBits(s1.getDouble(i)));
            }
        }
    }

    @Test
    void ceilPow2IsExactAtAndBetweenPowersOfTwo() {
        assertThat(Dsv4Numerics.ceilPow2(8.0)).isEqualTo(8.0);
        assertThat(Dsv4Numerics.ceilPow2(Math.nextUp(8.0))).isEqualTo(16.0);
        assertThat(Dsv4Numerics.ceilPow2(0.3)).isEqualTo(0.5);
        assertThat(Dsv4Numerics.ceilPow2(1e-20)).isEqualTo(Math.scalb(1.0, -66));
    }
}
