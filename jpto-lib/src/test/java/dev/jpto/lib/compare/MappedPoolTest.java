package dev.jpto.lib.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Pool [blocks=3, block_size=2, 4]: physical rows 0..5, each 4 values. */
class MappedPoolTest {
    private final Arena arena = Arena.ofConfined();
    private static final long[] POOL = {3, 2, 4};

    @AfterEach
    void close() {
        arena.close();
    }

    private Tensor pool() {
        double[] v = new double[24];
        for (int i = 0; i < 24; i++) {
            v[i] = 1 + i * 0.25;
        }
        return Tensors.of(arena, DType.FP32, POOL, v);
    }

    private CompareContext mapping(DType dtype, long[] shape, double... rows) {
        return new CompareContext(Map.of(), Map.of(), Map.of("slots", Tensors.of(arena, dtype, shape, rows)));
    }

    private CompareContext slots(double... rows) {
        return mapping(DType.INT32, new long[] {rows.length}, rows);
    }

    /** ratio_allclose on the mapped rows: 3 rows × 4 = 12 values, budget round(12/12) = 1. */
    private final GoldenComparator cmp = Comparators.mappedPool("slots", new long[] {4}, 2, false,
            Comparators.ratioAllclose(1e-3, 1e-3, 1.0 / 12));

    @Test
    void mappedRowsWithinToleranceAndUntouchedRowsPass() {
        Tensor expected = pool();
        Tensor actual = pool();
        actual.setDouble(5 * 4 + 1, actual.getDouble(5 * 4 + 1) + 1e-3); // row 5 (mapped), within atol + rtol*|e|
        CompareResult r = cmp.compare(actual, expected, slots(5, 0, -1, 3));
        assertThat(r.passed()).as(r.description()).isTrue();
        assertThat(r.numel()).isEqualTo(12);
        assertThat(r.description()).contains("3 mapped row(s) of 6");
    }

    @Test
    void mappedRowOutliersUseTheInnerBudgetAndReportPoolIndices() {
        Tensor expected = pool();
        Tensor actual = pool();
        actual.setDouble(5 * 4 + 2, 99); // row 5 = block 2, slot 1, column 2
        CompareResult one = cmp.compare(actual, expected, slots(5, 0, -1, 3));
        assertThat(one.passed()).isTrue();
        assertThat(one.mismatchCount()).isEqualTo(1);
        actual.setDouble(0, 99); // row 0, column 0: second outlier exceeds the budget of 1
        CompareResult two = cmp.compare(actual, expected, slots(5, 0, -1, 3));
        assertThat(two.passed()).isFalse();
        assertThat(two.mismatchCount()).isEqualTo(2);
        // gathered in physical-row order: row 0 first, then row 5
        assertThat(two.firstMismatches()).containsExactly(new long[] {0, 0, 0}, new long[] {2, 1, 2});
        assertThat(two.description()).contains("(pool indices: [0, 0, 0] [2, 1, 2])");
    }

    @Test
    void anyChangeToAnUnmappedRowFails() {
        Tensor expected = pool();
        Tensor actual = pool();
        // row 1 is not mapped: even one ulp is a stray write
        actual.setDouble(1 * 4 + 3, Math.nextUp((float) actual.getDouble(1 * 4 + 3)));
        CompareResult r = cmp.compare(actual, expected, slots(5, 0, -1, 3));
        assertThat(r.passed()).isFalse();
        assertThat(r.mismatchCount()).isEqualTo(1);
        assertThat(r.firstMismatches()).containsExactly(new long[] {0, 1, 3});
        assertThat(r.description()).contains("1 unmapped physical row(s) changed (first row=1)");
    }

    @Test
    void unmappedRowsCompareBitsSoIdenticalNanPassesAndSignedZeroDoesNot() {
        Tensor expected = pool();
        Tensor actual = pool();
        expected.setDouble(4, Double.NaN);
        actual.setDouble(4, Double.NaN);
        assertThat(cmp.compare(actual, expected, slots(5, 0, -1, 3)).passed()).isTrue();
        expected.setDouble(8, 0.0);
        actual.setDouble(8, -0.0);
        assertThat(cmp.compare(actual, expected, slots(5, 0, -1, 3)).passed()).isFalse();
    }

    @Test
    void nonFiniteInMappedRowsFailsEvenWhenTheInnerRuleWouldAcceptIt() {
        GoldenComparator lenient = Comparators.mappedPool("slots", new long[] {4}, 2, false,
                Comparators.allclose(0, 0));
        Tensor expected = pool();
        Tensor actual = pool();
        expected.setDouble(0, Double.NaN);
        actual.setDouble(0, Double.NaN);
        CompareResult r = lenient.compare(actual, expected, slots(5, 0, -1, 3));
        assertThat(r.passed()).isFalse();
        assertThat(r.description()).contains("non-finite values: actual 1, expected 1");
    }

    @Test
    void invalidMappingsFailWithTheEntry() {
        Tensor p = pool();
        assertThat(cmp.compare(p, p, slots(5, 0, -2, 3)).description())
                .contains("'slots'[2]=-2 is invalid; only -1 is a negative sentinel");
        assertThat(cmp.compare(p, p, slots(6, 0, -1, 3)).description())
                .contains("'slots'[0]=6 is outside the physical row range [0, 6)");
        assertThat(cmp.compare(p, p, slots(5, 0, 5, 3)).description())
                .contains("'slots' names physical row 5 twice (second time at 'slots'[2])");
        assertThat(cmp.compare(p, p, slots(5, 0, 3)).description())
                .contains("'slots' must have shape [4], got [3]");
        assertThat(cmp.compare(p, p, mapping(DType.FP32, new long[] {4}, 5, 0, -1, 3)).description())
                .contains("must have an integer dtype, got fp32");
        assertThat(cmp.compare(p, p, CompareContext.empty()).description())
                .contains("no input named 'slots' (inputs: [])");
        for (double[] bad : new double[][] {{5, 0, -2, 3}, {6, 0, -1, 3}, {5, 0, 5, 3}}) {
            assertThat(cmp.compare(p, p, slots(bad)).passed()).isFalse();
        }
    }

    @Test
    void layoutMustBeBlockMajorWithTheBlockSize() {
        Tensor wrong = Tensor.allocate(arena, DType.FP32, 2, 3, 4);
        assertThat(cmp.compare(wrong, wrong, slots(0, 1, 2, 3)).description())
                .contains("expected a block-major pool [blocks, block_size, …] with block_size=2, got [2, 3, 4]");
    }

    @Test
    void leadingRankAxisChecksEachRankSeparately() {
        // [ranks=2, blocks=2, block_size=2, 3]; mapping [2, 3]; the same physical row may appear on both ranks
        long[] shape = {2, 2, 2, 3};
        double[] v = new double[24];
        for (int i = 0; i < 24; i++) {
            v[i] = i;
        }
        GoldenComparator ranked = Comparators.mappedPool("slots", new long[] {2, 3}, 2, true,
                Comparators.allclose(0, 0));
        Tensor expected = Tensors.of(arena, DType.FP32, shape, v);
        Tensor actual = Tensors.of(arena, DType.FP32, shape, v);
        CompareContext ctx = mapping(DType.INT64, new long[] {2, 3}, 0, 2, -1, 0, 3, 1);
        assertThat(ranked.compare(actual, expected, ctx).passed()).isTrue();
        actual.setDouble(12 + 3 * 3 + 1, -1); // rank 1, physical row 3 (mapped there): mismatch at [1, 1, 1, 1]
        CompareResult r = ranked.compare(actual, expected, ctx);
        assertThat(r.passed()).isFalse();
        assertThat(r.firstMismatches()).containsExactly(new long[] {1, 1, 1, 1});
        actual.setDouble(12 + 3 * 3 + 1, 12 + 3 * 3 + 1);
        actual.setDouble(3 * 3, -1); // rank 0, physical row 3: not mapped on rank 0
        assertThat(ranked.compare(actual, expected, ctx).description())
                .contains("unmapped physical row(s) changed (first rank=0 row=3)");
        assertThat(ranked.compare(actual, expected, mapping(DType.INT64, new long[] {2, 3}, 0, 2, 0, 0, 3, 1))
                .description()).contains("names physical row 0 twice on rank 0");
    }

    @Test
    void constructionChecksItsParameters() {
        assertThatThrownBy(() -> Comparators.mappedPool("m", new long[] {0}, 2, false, Comparators.allclose(0, 0)))
                .hasMessageContaining("mapping_shape=[0]");
        assertThatThrownBy(() -> Comparators.mappedPool("m", new long[] {4}, 0, false, Comparators.allclose(0, 0)))
                .hasMessageContaining("block_size=0");
        assertThatThrownBy(() -> Comparators.mappedPool("m", new long[] {4}, 2, true, Comparators.allclose(0, 0)))
                .hasMessageContaining("leading_rank_axis");
    }
}
