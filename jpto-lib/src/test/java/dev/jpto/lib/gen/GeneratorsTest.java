package dev.jpto.lib.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GeneratorsTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private static byte[] bytes(Tensor t) {
        return t.buffer().asSlice(0, t.byteSize()).toArray(ValueLayout.JAVA_BYTE);
    }

    private static Init initFor(DType dtype) {
        if (dtype.isFloat()) {
            return Init.normal(0.25, 3);
        }
        // hi is exclusive: the whole range, except Long.MAX_VALUE for int64 (hi cannot exceed it)
        return Init.integers(dtype.minValue(), dtype == DType.INT64 ? Long.MAX_VALUE : dtype.maxValue() + 1);
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void sameSeedAndNameGiveIdenticalBits(DType dtype) {
        Tensor a = Generators.generate(arena, "w", dtype, new long[] {3, 5, 7}, initFor(dtype), 1234);
        Tensor b = Generators.generate(arena, "w", dtype, new long[] {3, 5, 7}, initFor(dtype), 1234);
        assertThat(bytes(a)).isEqualTo(bytes(b));
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void differentNamesAndSeedsGiveDifferentData(DType dtype) {
        long[] shape = {64};
        byte[] w = bytes(Generators.generate(arena, "w", dtype, shape, initFor(dtype), 1234));
        byte[] x = bytes(Generators.generate(arena, "x", dtype, shape, initFor(dtype), 1234));
        byte[] w2 = bytes(Generators.generate(arena, "w", dtype, shape, initFor(dtype), 1235));
        assertThat(w).isNotEqualTo(x);
        assertThat(w).isNotEqualTo(w2);
    }

    @Test
    void uniformMatchesPythonReference() {
        Tensor t = Tensor.allocate(arena, DType.FP32, 4);
        Generators.fill(t, "x", Init.uniform(-1, 2), 42);
        double[] ref = {1.947602003032959, -0.891086666808217, 1.1118942478362492, 0.47197362067080806};
        for (int i = 0; i < 4; i++) {
            assertThat(t.getDouble(i)).isEqualTo((double) (float) ref[i]);
        }
    }

    @Test
    void normalMatchesPythonReference() {
        Tensor t = Tensor.allocate(arena, DType.FP32, 2, 2);
        Generators.fill(t, "w", Init.normal(0.5, 2), 7);
        double[] ref = {1.6063274530202525, 1.6408175492913497, 2.579827049094785, 6.511382455730037};
        for (int i = 0; i < 4; i++) {
            assertThat(t.getDouble(i)).isEqualTo((double) (float) ref[i]);
        }
    }

    @Test
    void integersMatchPythonReference() {
        Tensor t = Generators.generate(arena, "ids", DType.INT32, new long[] {6}, Init.integers(-5, 1000), 3);
        assertThat(t.toDoubleArray()).containsExactly(806, 476, 615, 655, 659, 656);
    }

    @Test
    void bf16ValuesAreTheFp32ValuesRoundedToNearestEven() {
        Tensor f = Generators.generate(arena, "q", DType.FP32, new long[] {257}, Init.normal(0, 1), 5);
        Tensor h = Generators.generate(arena, "q", DType.BF16, new long[] {257}, Init.normal(0, 1), 5);
        for (int i = 0; i < 257; i++) {
            assertThat(h.getDouble(i)).isEqualTo((double) DType.BF16.round((float) f.getDouble(i)));
        }
    }

    @Test
    void stridedTargetsAreFilledInTheirCOrder() {
        Tensor base = Tensor.allocate(arena, DType.INT32, 4, 6);
        Tensor view = base.slice(new long[] {1, 2}, new long[] {2, 3});
        Generators.fill(view, "v", Init.integers(1, 1000), 9);
        Tensor same = Generators.generate(arena, "v", DType.INT32, new long[] {2, 3}, Init.integers(1, 1000), 9);
        assertThat(view.toDoubleArray()).containsExactly(same.toDoubleArray());
        assertThat(base.getDouble(0)).isZero(); // outside the view untouched
    }

    @Test
    void uniformMeanAndStdWithinFormulaTolerance() {
        int n = 200_000;
        double lo = -3;
        double hi = 5;
        Tensor t = Generators.generate(arena, "u", DType.FP32, new long[] {n}, Init.uniform(lo, hi), 11);
        double[] v = t.toDoubleArray();
        double sigma = (hi - lo) / Math.sqrt(12);
        assertMoments(v, (lo + hi) / 2, sigma, 1.8 * sigma * sigma * sigma * sigma);
        assertThat(Arrays.stream(v).min().orElseThrow()).isGreaterThanOrEqualTo(lo).isLessThan(lo + 0.01);
        assertThat(Arrays.stream(v).max().orElseThrow()).isLessThanOrEqualTo(hi).isGreaterThan(hi - 0.01);
    }

    @Test
    void normalMeanAndStdWithinFormulaTolerance() {
        int n = 200_001; // odd: the last element uses only the cosine half of its pair
        double mean = 1.5;
        double std = 0.75;
        Tensor t = Generators.generate(arena, "g", DType.FP32, new long[] {n}, Init.normal(mean, std), 12);
        double[] v = t.toDoubleArray();
        assertMoments(v, mean, std, 3 * std * std * std * std);
        // about 68.27% within one std: binomial standard error sqrt(p(1-p)/n) ≈ 0.00104, allow 5 of them
        double within = Arrays.stream(v).filter(x -> Math.abs(x - mean) <= std).count() / (double) n;
        assertThat(within).isCloseTo(0.682689, org.assertj.core.data.Offset.offset(5 * 0.00104));
    }

    /**
     * Sample mean within 5 standard errors (σ/√n) and sample variance within 5 standard errors
     * (√((μ4 − σ⁴)/n), μ4 the fourth central moment: 9σ⁴/5 for uniform, 3σ⁴ for normal).
     */
    private static void assertMoments(double[] v, double mean, double sigma, double mu4) {
        int n = v.length;
        double m = Arrays.stream(v).sum() / n;
        double var = Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (n - 1);
        assertThat(m).isCloseTo(mean, org.assertj.core.data.Offset.offset(5 * sigma / Math.sqrt(n)));
        double varSe = Math.sqrt((mu4 - sigma * sigma * sigma * sigma) / n);
        assertThat(var).isCloseTo(sigma * sigma, org.assertj.core.data.Offset.offset(5 * varSe));
    }

    @Test
    void integersCoverTheRangeEvenly() {
        int n = 100_000;
        int k = 10;
        Tensor t = Generators.generate(arena, "i", DType.INT8, new long[] {n}, Init.integers(-3, -3 + k), 13);
        long[] counts = new long[k];
        for (double x : t.toDoubleArray()) {
            assertThat(x).isBetween(-3.0, -3.0 + k - 1);
            counts[(int) x + 3]++;
        }
        double p = 1.0 / k;
        double se = Math.sqrt(n * p * (1 - p));
        for (long c : counts) {
            assertThat((double) c).isCloseTo(n * p, org.assertj.core.data.Offset.offset(5 * se));
        }
    }

    @Test
    void fullInt64RangeAndExactLongs() {
        Tensor t = Generators.generate(arena, "big", DType.INT64, new long[] {1000},
                Init.integers(Long.MIN_VALUE, Long.MAX_VALUE), 14);
        long negatives = 0;
        for (long i = 0; i < 1000; i++) {
            long v = DType.INT64.loadLong(t.buffer(), t.byteOffsetOfFlat(i));
            negatives += v < 0 ? 1 : 0;
        }
        assertThat(negatives).isBetween(400L, 600L);
        // exact: matches the stream directly, no trip through double
        SplitMix64 s = SplitMix64.stream(14, "big");
        long first = Long.MIN_VALUE + s.nextBounded(Long.MAX_VALUE - Long.MIN_VALUE);
        assertThat(DType.INT64.loadLong(t.buffer(), 0)).isEqualTo(first);
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void constantsZerosAndOnes(DType dtype) {
        Tensor z = Generators.generate(arena, "z", dtype, new long[] {2, 3}, Init.zeros(), 0);
        Tensor o = Generators.generate(arena, "o", dtype, new long[] {2, 3}, Init.ones(), 0);
        assertThat(z.toDoubleArray()).containsOnly(0.0);
        assertThat(o.toDoubleArray()).containsOnly(1.0);
        if (dtype.isFloat()) {
            Tensor c = Generators.generate(arena, "c", dtype, new long[] {2}, Init.constant(-2.5), 0);
            assertThat(c.toDoubleArray()).containsOnly(-2.5);
            Tensor inf = Generators.generate(arena, "m", dtype, new long[] {2},
                    Init.constant(Double.NEGATIVE_INFINITY), 0);
            assertThat(inf.toDoubleArray()).containsOnly(Double.NEGATIVE_INFINITY);
        }
    }

    @Test
    void valuesTheDtypeCannotHoldAreRefused() {
        assertThatThrownBy(() -> Generators.generate(arena, "ids", DType.INT8, new long[] {4}, Init.integers(0, 1000),
                0)).hasMessage("tensor 'ids' (int8): integers[0, 1000) does not fit the int8 range [-128, 127];"
                        + " narrow the range or use a wider dtype");
        assertThatThrownBy(() -> Generators.generate(arena, "b", DType.BOOL, new long[] {4}, Init.constant(2), 0))
                .hasMessageContaining("is not a value of the bool range [0, 1]");
        assertThatThrownBy(() -> Generators.generate(arena, "n", DType.INT32, new long[] {4}, Init.normal(0, 1), 0))
                .hasMessageContaining("unbounded");
        assertThatThrownBy(() -> Generators.generate(arena, "h", DType.FP16, new long[] {4},
                Init.uniform(0, 1e5), 0)).hasMessageContaining("beyond the largest finite fp16 65504.0");
        assertThatThrownBy(() -> Init.uniform(1, 1)).hasMessageContaining("use a constant");
        assertThatThrownBy(() -> Init.integers(5, 5)).hasMessageContaining("try hi=6");
        assertThatThrownBy(() -> Init.normal(0, -1)).hasMessageContaining("std=-1.0");
    }

    @Test
    void uniformIntoIntegersRoundsAndStaysInRange() {
        Tensor t = Generators.generate(arena, "r", DType.UINT8, new long[] {1000}, Init.uniform(0, 255), 15);
        assertThat(Arrays.stream(t.toDoubleArray()).allMatch(x -> x >= 0 && x <= 255 && x == Math.rint(x))).isTrue();
    }

    @Test
    void describeIsReadable() {
        assertThat(Init.zeros().describe()).isEqualTo("zeros");
        assertThat(Init.normal(0, 1).describe()).isEqualTo("normal(0.0, 1.0)");
        assertThat(Init.integers(0, 8).describe()).isEqualTo("integers[0, 8)");
    }
}
