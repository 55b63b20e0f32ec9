package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** gen_shared_weight's one-pass, parallel generation: its meaning, layouts, the scale cache, thread independence. */
class SharedWeightTest {
    private static final int OUT = 300; // three 128-row bands, the last partial
    private static final int IN = 200;  // a partial 128-column block
    private static final double STD = 7.65e-3;

    private static Init.Context context(long seed) {
        return FillContexts.context(seed);
    }

    private static void fill(Init init, Tensor t, long seed) {
        FillContexts.fill(init, t, seed);
    }

    @Test
    void dequantisedWeightHasTheRequestedStdAndRowsUseTheirWholeInt8Range() {
        try (Arena a = Arena.ofConfined()) {
            Dsv4Fills.SharedWeight w = Dsv4Fills.sharedWeight("shared_w1", OUT, IN, STD, 0.5, false);
            Tensor q = Tensor.allocate(a, DType.INT8, new long[] {OUT, IN});
            Tensor s = Tensor.allocate(a, DType.FP32, new long[] {OUT});
            fill(w.codes(), q, 1);
            fill(w.scales(), s, 1);
            double sum = 0;
            double sumSq = 0;
            for (int o = 0; o < OUT; o++) {
                int amax = 0;
                for (int k = 0; k < IN; k++) {
                    int v = (int) q.getDouble((long) o * IN + k);
                    amax = Math.max(amax, Math.abs(v));
                    double deq = v * s.getDouble(o);
                    sum += deq;
                    sumSq += deq * deq;
                }
                assertThat(amax).as("row %d", o).isEqualTo(127);
            }
            double n = (double) OUT * IN;
            assertThat(Math.sqrt((sumSq - sum * sum / n) / (n - 1))).isCloseTo(STD, within(STD * 1e-5));
        }
    }

    @Test
    void transposedCodesAndCachedScalesMatchAFreshPass() {
        try (Arena a = Arena.ofConfined()) {
            Dsv4Fills.SharedWeight plain = Dsv4Fills.sharedWeight("idx_wq_b", OUT, IN, STD, 0.56, false);
            Dsv4Fills.SharedWeight tr = Dsv4Fills.sharedWeight("idx_wq_b", OUT, IN, STD, 0.56, true);
            Tensor q = Tensor.allocate(a, DType.INT8, new long[] {OUT, IN});
            Tensor qt = Tensor.allocate(a, DType.INT8, new long[] {IN, OUT});
            Tensor cached = Tensor.allocate(a, DType.FP32, new long[] {OUT});
            Tensor alone = Tensor.allocate(a, DType.FP32, new long[] {OUT});
            fill(Dsv4Fills.sharedWeight("idx_wq_b", OUT, IN, STD, 0.56, true).scales(), alone, 4); // no codes yet
            fill(plain.codes(), q, 4);
            fill(tr.codes(), qt, 4);
            fill(tr.scales(), cached, 4);
            for (int o = 0; o < OUT; o++) {
                for (int k = 0; k < IN; k++) {
                    assertThat(qt.getDouble((long) k * OUT + o)).isEqualTo(q.getDouble((long) o * IN + k));
                }
                assertThat(cached.getDouble(o)).isEqualTo(alone.getDouble(o));
            }
        }
    }

    @Test
    void identicalBitsOnOneThreadAndOnThePool() throws Exception {
        try (Arena a = Arena.ofShared()) {
            Tensor q1 = Tensor.allocate(a, DType.INT8, new long[] {OUT, IN});
            Tensor s1 = Tensor.allocate(a, DType.FP32, new long[] {OUT});
            ForkJoinPool one = new ForkJoinPool(1);
            try {
                one.submit(() -> {
                    Dsv4Fills.SharedWeight w = Dsv4Fills.sharedWeight("w", OUT, IN, STD, 0.5, false);
                    fill(w.codes(), q1, 2);
                    fill(w.scales(), s1, 2);
                }).get(60, TimeUnit.SECONDS);
            } finally {
                one.shutdown();
            }
            Tensor q2 = Tensor.allocate(a, DType.INT8, new long[] {OUT, IN});
            Tensor s2 = Tensor.allocate(a, DType.FP32, new long[] {OUT});
            Dsv4Fills.SharedWeight w = Dsv4Fills.sharedWeight("w", OUT, IN, STD, 0.5, false);
            fill(w.codes(), q2, 2);
            fill(w.scales(), s2, 2);
            for (long i = 0; i < q1.numel(); i++) {
                assertThat(q2.getDouble(i)).isEqualTo(q1.getDouble(i));
            }
            for (long i = 0; i < OUT; i++) {
                assertThat(Double.doubleToRawLongBits(s2.getDouble(i)))
                        .isEqualTo(Double.doubleToRawLongBits(s1.getDouble(i)));
            }
        }
    }
}
