package dev.jpto.lib.compare;

import static dev.jpto.lib.compare.Tensors.f32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * pypto-lib's rule with diff_thd = 2^-7: floor = 2^-14 / 2^-7 = 2^-7.
 * Near 1: rdiff = a / (1 + a + 1e-9) > 2^-7  ⇔  a > 2^-7 (1 + 1e-9) / (1 − 2^-7) ≈ 0.0078740.
 */
class RatioReldiffTest {
    private final Arena arena = Arena.ofConfined();
    private static final double THD = Math.scalb(1.0, -7);

    @AfterEach
    void close() {
        arena.close();
    }

    private boolean bad(double actual, double expected) {
        CompareResult r = Comparators.ratioReldiff(THD, 0.0).compare(f32(arena, actual), f32(arena, expected),
                CompareContext.empty());
        return !r.passed();
    }

    @Test
    void absoluteDifferenceBelowThresholdIsNeverBad() {
        assertThat(bad(Math.nextDown((float) THD), 0.0)).isFalse(); // a < thd: rdiff = a
        assertThat(bad(THD, 0.0)).isTrue();                          // a = thd: rdiff = a / (floor + 1e-9) ≈ 1
        assertThat(bad(1000 + 0.0078, 1000)).isFalse();             // large values, small absolute error
    }

    @Test
    void relativeDifferenceAroundTheThresholdNearOne() {
        assertThat(bad(1.00787, 1.0)).isFalse();  // rdiff ≈ 0.0078085
        assertThat(bad(1.00788, 1.0)).isTrue();   // rdiff ≈ 0.0078184
        assertThat(bad(1.0, 1.00788)).isTrue();   // symmetric: max(|a|, |e|) in the denominator
        assertThat(bad(-1.00787, -1.0)).isFalse();
    }

    @Test
    void rdiffFormula() {
        RatioReldiff r = new RatioReldiff(THD, 0.05, Double.POSITIVE_INFINITY);
        assertThat(r.rdiff(1.5, 1.0)).isEqualTo(0.5 / (1.5 + 1e-9));
        assertThat(r.rdiff(0.01, 0.0)).isEqualTo(0.01 / (0.01 + 1e-9));
        assertThat(r.rdiff(0.006, -0.006)).isEqualTo(0.012 / (THD + 1e-9)); // both below the floor 2^-7
        assertThat(r.rdiff(0.005, 0.0)).isEqualTo(0.005);
    }

    @Test
    void budgetOfBadElementsIsInclusive() {
        double[] a = new double[100];
        java.util.Arrays.fill(a, 1.0);
        for (int i = 0; i < 5; i++) {
            a[i] = 1.5;
        }
        GoldenComparator cmp = Comparators.ratioReldiff(THD, 0.05);
        assertThat(cmp.compare(f32(arena, a), Tensors.filled(arena, 100, 1.0), CompareContext.empty()).passed())
                .isTrue();
        a[5] = 1.5;
        CompareResult six = cmp.compare(f32(arena, a), Tensors.filled(arena, 100, 1.0), CompareContext.empty());
        assertThat(six.passed()).isFalse();
        assertThat(six.mismatchCount()).isEqualTo(6);
        assertThat(six.description()).contains("6/100 elements with rdiff > 0.0078125 (allowed 5)")
                .contains("too many elements");
    }

    @Test
    void worstElementCapIsExclusive() {
        // one bad element with rdiff = 0.5 / (1.5 + 1e-9) ≈ 0.33333333311
        double worst = 0.5 / (1.5 + 1e-9);
        CompareResult under = Comparators.ratioReldiff(THD, 1.0, Math.nextUp(worst))
                .compare(f32(arena, 1.5, 1), f32(arena, 1, 1), CompareContext.empty());
        assertThat(under.passed()).isTrue();
        CompareResult at = Comparators.ratioReldiff(THD, 1.0, worst)
                .compare(f32(arena, 1.5, 1), f32(arena, 1, 1), CompareContext.empty());
        assertThat(at.passed()).isFalse();
        assertThat(at.description()).contains("worst rdiff reaches max_diff_hd");
    }

    @Test
    void nonFiniteFails() {
        CompareResult r = Comparators.ratioReldiff(THD, 1.0).compare(f32(arena, Double.POSITIVE_INFINITY),
                f32(arena, Double.POSITIVE_INFINITY), CompareContext.empty());
        assertThat(r.passed()).isFalse();
        assertThat(r.description()).contains("actual: NaN=0 Inf=1; expected: NaN=0 Inf=1");
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> Comparators.ratioReldiff(0, 0.1)).hasMessageContaining("diff_thd=0.0");
        assertThatThrownBy(() -> Comparators.ratioReldiff(0.01, 1.5)).hasMessageContaining("pct_thd=1.5");
        assertThatThrownBy(() -> Comparators.ratioReldiff(0.01, 0.1, 0)).hasMessageContaining("max_diff_hd=0.0");
    }
}
