package dev.jpto.isa.op;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.jpto.isa.DType;
import dev.jpto.isa.op.Fn;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ElementwiseTest {
    @Test
    void integerVersusDoubleComparisonIsExact() {
        assertThat(Elementwise.compareExact(Long.MAX_VALUE, 0x1p63)).isNegative(); // 2^63 - 1 < 2^63
        assertThat(Elementwise.compareExact(Long.MIN_VALUE, -0x1p63)).isZero();
        assertThat(Elementwise.compareExact(Long.MIN_VALUE, -0x1p63 - 4096)).isPositive();
        assertThat(Elementwise.compareExact((1L << 53) + 1, 0x1p53)).isPositive(); // not equal after rounding
        assertThat(Elementwise.compareExact(-3, -2.5)).isNegative();
        assertThat(Elementwise.compareExact(-2, -2.5)).isPositive();
        assertThat(Elementwise.compareExact(0, -0.0)).isZero();
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < 20_000; i++) {
            long a = r.nextLong() >> r.nextInt(64);
            double b = r.nextBoolean() ? (double) (a + r.nextInt(-3, 4)) + r.nextInt(3) * 0.5
                    : Double.longBitsToDouble(r.nextLong());
            if (Double.isNaN(b) || Double.isInfinite(b)) {
                continue;
            }
            int want = Integer.signum(new BigDecimal(a).compareTo(new BigDecimal(b)));
            assertThat(Integer.signum(Elementwise.compareExact(a, b))).as("%d vs %s", a, b).isEqualTo(want);
        }
        assertThat(Elementwise.test(Fn.Compare.NE, 1L, Double.NaN)).isTrue();
        assertThat(Elementwise.test(Fn.Compare.EQ, 1L, Double.NaN)).isFalse();
        assertThat(Elementwise.test(Fn.Compare.LT, 1L, Double.POSITIVE_INFINITY)).isTrue();
        assertThat(Elementwise.test(Fn.Compare.GT, Long.MIN_VALUE, Double.NEGATIVE_INFINITY)).isTrue();
    }

    /**
     * GELU keeps its digits for negative x, where the tanh form 0.5·x·(1 + tanh u) cancels to −0 from x ≈ −7.2 on.
     * Reference: the same function as x·e^(2u) / (1 + e^(2u)), a product of a tiny factor instead of a quotient.
     */
    @Test
    void geluKeepsItsDigitsForNegativeInputs() {
        for (double x = -12; x <= 4; x += 0.25) {
            double u = Math.sqrt(2.0 / Math.PI) * (x + 0.044715 * x * x * x);
            double e = Math.exp(2 * u);
            double want = Double.isInfinite(e) ? x : x * e / (1 + e);
            assertThat(Elementwise.gelu(x)).as("gelu(%s)", x).isCloseTo(want, withinPercentage(1e-9));
        }
        assertThat(Elementwise.gelu(-9)).isNegative().isCloseTo(-1.3364596e-28, withinPercentage(1e-5));
    }

    @Test
    void wrapToEachIntegerWidth() {
        assertThat(Elementwise.wrap(DType.INT8, 200)).isEqualTo(-56);
        assertThat(Elementwise.wrap(DType.UINT8, -1)).isEqualTo(255);
        assertThat(Elementwise.wrap(DType.INT16, 40000)).isEqualTo(-25536);
        assertThat(Elementwise.wrap(DType.INT32, 1L << 31)).isEqualTo(Integer.MIN_VALUE);
        assertThat(Elementwise.wrap(DType.INT64, Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        assertThat(Elementwise.wrap(DType.BOOL, 256)).isEqualTo(1);
        assertThat(Elementwise.integerScalar(2.5)).isEqualTo(2);
        assertThat(Elementwise.integerScalar(Double.NaN)).isZero();
        assertThat(Elementwise.integerScalar(1e300)).isEqualTo(Long.MAX_VALUE);
    }
}
