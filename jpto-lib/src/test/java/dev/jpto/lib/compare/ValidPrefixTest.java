package dev.jpto.lib.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Buffers [2 ranks, 4 tokens, 3] where only the first 2 tokens are active (axis 1). */
class ValidPrefixTest {
    private final Arena arena = Arena.ofConfined();
    private static final long[] SHAPE = {2, 4, 3};

    @AfterEach
    void close() {
        arena.close();
    }

    private Tensor buffer(double tailValue) {
        double[] v = new double[24];
        for (int i = 0; i < 24; i++) {
            long token = (i / 3) % 4;
            v[i] = token < 2 ? 1 + i : tailValue;
        }
        return Tensors.of(arena, DType.FP32, SHAPE, v);
    }

    @Test
    void garbageInTheTailIsIgnoredWithoutZeroTail() {
        GoldenComparator cmp = Comparators.validPrefix(2, 1, false, Comparators.allclose(0, 0));
        CompareResult r = cmp.compare(buffer(7), buffer(0), CompareContext.empty());
        assertThat(r.passed()).isTrue();
        assertThat(r.numel()).isEqualTo(12);
    }

    @Test
    void zeroTailRejectsWritesPastTheActiveRows() {
        GoldenComparator cmp = Comparators.validPrefix(2, 1, true, Comparators.allclose(0, 0));
        assertThat(cmp.compare(buffer(0), buffer(0), CompareContext.empty()).passed()).isTrue();
        Tensor actual = buffer(0);
        actual.setDouble(1 * 12 + 3 * 3 + 2, 5); // rank 1, token 3, column 2
        CompareResult r = cmp.compare(actual, buffer(0), CompareContext.empty());
        assertThat(r.passed()).isFalse();
        assertThat(r.firstMismatches()).containsExactly(new long[] {1, 3, 2});
        assertThat(r.description()).contains("inactive tail contains 1 nonzero values");
    }

    @Test
    void mismatchesInThePrefixKeepWholeTensorIndices() {
        GoldenComparator cmp = Comparators.validPrefix(2, 1, false, Comparators.allclose(0, 0));
        Tensor actual = buffer(0);
        actual.setDouble(1 * 12 + 1 * 3 + 0, -1); // rank 1, token 1, column 0
        CompareResult r = cmp.compare(actual, buffer(0), CompareContext.empty());
        assertThat(r.passed()).isFalse();
        assertThat(r.firstMismatches()).containsExactly(new long[] {1, 1, 0});
        assertThat(r.description()).startsWith("valid_rows=2 of 4 on axis 1: allclose");
    }

    @Test
    void outOfRangeRowsAndAxisFail() {
        Tensor b = buffer(0);
        assertThat(Comparators.validPrefix(5, 1, false, Comparators.allclose(0, 0))
                .compare(b, b, CompareContext.empty()).description())
                .contains("valid_rows=5 out of range for axis 1 of length 4");
        assertThat(Comparators.validPrefix(1, 3, false, Comparators.allclose(0, 0))
                .compare(b, b, CompareContext.empty()).passed()).isFalse();
        assertThat(Comparators.validPrefix(0, 1, false, Comparators.allclose(0, 0))
                .compare(buffer(3), buffer(0), CompareContext.empty()).passed()).isTrue();
    }
}
