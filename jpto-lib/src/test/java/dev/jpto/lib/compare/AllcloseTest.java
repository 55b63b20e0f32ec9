package dev.jpto.lib.compare;

import static dev.jpto.lib.compare.Tensors.down;
import static dev.jpto.lib.compare.Tensors.f32;
import static dev.jpto.lib.compare.Tensors.up;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AllcloseTest {
    private final Arena arena = Arena.ofShared();
    // Dyadic tolerances: atol + rtol*|1| = 2^-12 + 2^-10 is exact in fp32, so the boundary is exact.
    private static final double RTOL = Math.scalb(1.0, -10);
    private static final double ATOL = Math.scalb(1.0, -12);
    private static final double TOL_AT_ONE = ATOL + RTOL;
    private final GoldenComparator cmp = Comparators.allclose(RTOL, ATOL);

    @AfterEach
    void close() {
        arena.close();
    }

    private CompareResult run(double actual, double expected) {
        return cmp.compare(f32(arena, actual), f32(arena, expected), CompareContext.empty());
    }

    @Test
    void theFailLineSaysHowManyMismatchesMaxRelLeavesOutForAnExpectedZero() {
        // three mismatches: two where the golden is 0 (no relative error), one at 2 with relative error 0.25
        CompareResult r = cmp.compare(f32(arena, 13.75, -3, 2.5, 1, 0), f32(arena, 0, 0, 2, 1, 0),
                CompareContext.empty());
        assertThat(r.passed()).isFalse();
        assertThat(r.mismatchCount()).isEqualTo(3);
        assertThat(r.maxRelError()).isEqualTo(0.25);
        assertThat(r.description()).contains("3/5 elements outside atol + rtol*|expected|, max_abs=13.75 "
                + "max_rel=0.2500 (leaves out the 2 of 3 mismatches whose expected value is 0) first at [0] [1] [2]");
        // no mismatch at an expected 0: nothing to say
        CompareResult plain = cmp.compare(f32(arena, 2.5, 0), f32(arena, 2, 0), CompareContext.empty());
        assertThat(plain.description()).endsWith("max_abs=0.5000 max_rel=0.2500 first at [0]");
    }

    @Test
    void exactlyAtToleranceAboveAndBelowPasses() {
        assertThat(run(1.0 + TOL_AT_ONE, 1.0).passed()).isTrue();
        assertThat(run(1.0 - TOL_AT_ONE, 1.0).passed()).isTrue();
    }

    @Test
    void oneUlpBeyondToleranceFailsOnBothSides() {
        assertThat(run(up(1.0 + TOL_AT_ONE), 1.0).passed()).isFalse();
        assertThat(run(down(1.0 - TOL_AT_ONE), 1.0).passed()).isFalse();
    }

    @Test
    void relativeTermUsesExpectedNotActual() {
        // expected 4: tol = 2^-12 + 4*2^-10; actual 4 + tol passes, but swapping the roles does not widen it
        double tol4 = ATOL + 4 * RTOL;
        assertThat(run(4 + tol4, 4).passed()).isTrue();
        assertThat(run(up(4 + tol4), 4).passed()).isFalse();
    }

    @Test
    void nanMatchesOnlyNanAndInfinityOnlyItself() {
        assertThat(run(Double.NaN, Double.NaN).passed()).isTrue();
        assertThat(run(Double.NaN, 1).passed()).isFalse();
        assertThat(run(1, Double.NaN).passed()).isFalse();
        assertThat(run(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY).passed()).isTrue();
        assertThat(run(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY).passed()).isFalse();
        assertThat(run(Double.POSITIVE_INFINITY, 3.0e38).passed()).isFalse();
    }

    @Test
    void failureReportsCountsErrorsAndMultiDimensionalIndices() {
        long[] shape = {2, 3, 4};
        double[] e = new double[24];
        double[] a = new double[24];
        for (int i = 0; i < 24; i++) {
            e[i] = i + 1;
            a[i] = i + 1;
        }
        a[5] += 0.5;   // [0, 1, 1]: abs 0.5, rel 0.5/6
        a[23] -= 2.0;  // [1, 2, 3]: abs 2, rel 2/24
        a[10] += 1e-3; // [0, 2, 2]: within atol + rtol*11 = 0.0110
        CompareResult r = cmp.compare(Tensors.of(arena, DType.FP32, shape, a), Tensors.of(arena, DType.FP32, shape, e),
                CompareContext.empty());
        assertThat(r.passed()).isFalse();
        assertThat(r.numel()).isEqualTo(24);
        assertThat(r.mismatchCount()).isEqualTo(2);
        assertThat(r.maxAbsError()).isEqualTo(2.0);
        assertThat(r.maxRelError()).isCloseTo(0.5 / 6, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(r.firstMismatches()).containsExactly(new long[] {0, 1, 1}, new long[] {1, 2, 3});
        assertThat(r.description()).startsWith("allclose(rtol=9.765625E-4, atol=2.44140625E-4): 2/24 elements")
                .contains("max_abs=2.000").contains("first at [0, 1, 1] [1, 2, 3]").doesNotContain("\n");
    }

    @Test
    void shapeMismatchFailsWithBothShapes() {
        CompareResult r = cmp.compare(f32(arena, 1, 2), f32(arena, 1, 2, 3), CompareContext.empty());
        assertThat(r.passed()).isFalse();
        assertThat(r.description()).contains("shape mismatch: actual [2] vs expected [3]");
    }

    @Test
    void stridedViewsCompareInCOrder() {
        Tensor m = Tensors.of(arena, DType.FP32, new long[] {2, 3}, 1, 2, 3, 4, 5, 6);
        Tensor transposed = Tensor.of(m.buffer(), DType.FP32, new long[] {3, 2}, new long[] {1, 3}, 0);
        Tensor expected = Tensors.of(arena, DType.FP32, new long[] {3, 2}, 1, 4, 2, 5, 3, 6);
        assertThat(cmp.compare(transposed, expected, CompareContext.empty()).passed()).isTrue();
    }

    @Test
    void negativeToleranceIsRejectedWithTheValue() {
        assertThatThrownBy(() -> Comparators.allclose(-1e-3, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allclose rtol must be a finite number >= 0: rtol=-0.001");
    }

    /** Mismatch count equals a plain scalar count of the numpy formula. */
    @Property(tries = 200)
    void countMatchesScalarFormula(@ForAll @Size(min = 1, max = 40) double[] seedValues,
            @ForAll @DoubleRange(min = 0, max = 0.1) double rtol,
            @ForAll @DoubleRange(min = 0, max = 0.1) double atol) {
        try (Arena local = Arena.ofConfined()) {
            int n = seedValues.length;
            double[] e = new double[n];
            double[] a = new double[n];
            for (int i = 0; i < n; i++) {
                e[i] = (float) (Math.sin(i + seedValues[i]) * 10);
                a[i] = (float) (e[i] + Math.cos(seedValues[i] * 3) * 0.2);
            }
            long expectedBad = 0;
            for (int i = 0; i < n; i++) {
                expectedBad += Math.abs(a[i] - e[i]) <= atol + rtol * Math.abs(e[i]) ? 0 : 1;
            }
            CompareResult r = new Allclose(rtol, atol).compare(f32(local, a), f32(local, e), CompareContext.empty());
            assertThat(r.mismatchCount()).isEqualTo(expectedBad);
            assertThat(r.passed()).isEqualTo(expectedBad == 0);
        }
    }
}
