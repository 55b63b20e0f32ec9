package dev.jpto.lib.compare;

import static dev.jpto.lib.compare.Tensors.f32;
import static dev.jpto.lib.compare.Tensors.up;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RatioAllcloseTest {
    private final Arena arena = Arena.ofConfined();
    private static final double RTOL = Math.scalb(1.0, -7);
    private static final double ATOL = Math.scalb(1.0, -10);

    @AfterEach
    void close() {
        arena.close();
    }

    /** 1000 ones, with {@code bad} of them pushed one fp32 ulp beyond tolerance and the rest exactly at it. */
    private CompareResult withBad(GoldenComparator cmp, int bad) {
        double edge = 1.0 + ATOL + RTOL;
        double[] a = new double[1000];
        for (int i = 0; i < a.length; i++) {
            a[i] = i < bad ? up(edge) : edge;
        }
        return cmp.compare(f32(arena, a), Tensors.filled(arena, 1000, 1.0), CompareContext.empty());
    }

    @Test
    void budgetIsInclusive() {
        GoldenComparator cmp = Comparators.ratioAllclose(RTOL, ATOL, 0.005); // 5 of 1000
        CompareResult five = withBad(cmp, 5);
        assertThat(five.passed()).isTrue();
        assertThat(five.mismatchCount()).isEqualTo(5);
        CompareResult six = withBad(cmp, 6);
        assertThat(six.passed()).isFalse();
        assertThat(six.mismatchCount()).isEqualTo(6);
        assertThat(six.description()).contains("6/1000 elements outside atol + rtol*|expected| (allowed 5)");
        assertThat(six.firstMismatches()).hasSize(6);
        assertThat(six.firstMismatches().get(0)).containsExactly(0);
    }

    @Test
    void budgetRoundsHalfToEvenLikePythonRound() {
        // 0.0025 * 1000 = 2.5 -> Python round() gives 2; 0.0035 * 1000 = 3.5 -> 4
        GoldenComparator half2 = Comparators.ratioAllclose(RTOL, ATOL, 0.0025);
        assertThat(withBad(half2, 2).passed()).isTrue();
        assertThat(withBad(half2, 3).passed()).isFalse();
        GoldenComparator half4 = Comparators.ratioAllclose(RTOL, ATOL, 0.0035);
        assertThat(withBad(half4, 4).passed()).isTrue();
        assertThat(withBad(half4, 5).passed()).isFalse();
    }

    @Test
    void zeroRatioIsStrictAllclose() {
        GoldenComparator strict = Comparators.ratioAllclose(RTOL, ATOL, 0.0);
        assertThat(withBad(strict, 0).passed()).isTrue();
        assertThat(withBad(strict, 1).passed()).isFalse();
    }

    @Test
    void nonFiniteFailsWhateverTheBudget() {
        GoldenComparator all = Comparators.ratioAllclose(RTOL, ATOL, 1.0);
        CompareResult nan = all.compare(f32(arena, 1, Double.NaN), f32(arena, 1, Double.NaN), CompareContext.empty());
        assertThat(nan.passed()).isFalse();
        assertThat(nan.description()).contains("illegal values in comparison: actual: NaN=1 Inf=0; expected: NaN=1");
        CompareResult inf = all.compare(f32(arena, 1, 2), f32(arena, 1, Double.POSITIVE_INFINITY),
                CompareContext.empty());
        assertThat(inf.passed()).isFalse();
        assertThat(inf.description()).contains("expected: NaN=0 Inf=1");
    }

    @Test
    void emptyTensorPasses() {
        Tensor empty = Tensor.allocate(arena, dev.jpto.isa.DType.FP32, 0, 4);
        assertThat(Comparators.ratioAllclose(RTOL, ATOL).compare(empty, empty, CompareContext.empty()).passed())
                .isTrue();
    }

    @Test
    void ratioOutsideUnitIntervalIsRejected() {
        assertThatThrownBy(() -> Comparators.ratioAllclose(RTOL, ATOL, 5))
                .hasMessageContaining("ratio_allclose max_error_ratio must be in [0, 1]: max_error_ratio=5.0");
    }
}
