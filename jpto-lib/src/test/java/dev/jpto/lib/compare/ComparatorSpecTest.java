package dev.jpto.lib.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Comparators written as text ({@code jpto exec --compare NAME=SPEC}) mean their factories. */
class ComparatorSpecTest {
    private static CompareResult compare(GoldenComparator c, double actual, double expected) {
        try (Arena arena = Arena.ofConfined()) {
            Tensor a = Tensor.allocate(arena, DType.FP32, 1, 1);
            Tensor e = Tensor.allocate(arena, DType.FP32, 1, 1);
            a.setDouble(0, actual);
            e.setDouble(0, expected);
            return c.compare(a, e, new CompareContext(Map.of("y", a), Map.of("y", e), Map.of()));
        }
    }

    @Test
    void eachFormMeansItsFactory() {
        assertThat(ComparatorSpec.parse("allclose(1e-3, 0)")).isEqualTo(Comparators.allclose(1e-3, 0));
        assertThat(ComparatorSpec.parse(" allclose ")).isEqualTo(ComparatorSpec.numpyDefault());
        assertThat(ComparatorSpec.parse("ratio_allclose(0.01, 0.001, 0.002)"))
                .isEqualTo(Comparators.ratioAllclose(0.01, 0.001, 0.002));
        assertThat(ComparatorSpec.parse("ratio_reldiff(0.005, 0.001)"))
                .isEqualTo(Comparators.ratioReldiff(0.005, 0.001));
        assertThat(compare(ComparatorSpec.parse("exact"), 1.0, 1.0).passed()).isTrue();
        assertThat(compare(ComparatorSpec.parse("exact"), 1.0, Math.nextUp(1.0f)).passed()).isFalse();
        assertThat(compare(ComparatorSpec.parse("allclose(0.01, 0)"), 1.005, 1.0).passed()).isTrue();
        assertThat(compare(ComparatorSpec.parse("allclose(0.001, 0)"), 1.005, 1.0).passed()).isFalse();
    }

    @Test
    void badTextNamesItselfAndTheForms() {
        assertThatThrownBy(() -> ComparatorSpec.parse("closeish")).hasMessageContaining("comparator 'closeish' is "
                + "not one of allclose(RTOL, ATOL)");
        assertThatThrownBy(() -> ComparatorSpec.parse("allclose(1e-3)")).hasMessageContaining("takes 2 argument(s), "
                + "got 1");
        assertThatThrownBy(() -> ComparatorSpec.parse("allclose(1e-3, x)")).hasMessageContaining("argument 'x' is "
                + "not a finite number >= 0");
        assertThatThrownBy(() -> ComparatorSpec.parse("allclose(1e-3, 0")).hasMessageContaining("no closing ')'");
        assertThatThrownBy(() -> ComparatorSpec.parse("exact(1)")).hasMessageContaining("takes 0 argument(s)");
    }
}
