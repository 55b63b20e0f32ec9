package dev.jpto.lib.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TopkPairTest {
    private final Arena arena = Arena.ofConfined();
    private static final double ATOL = Math.scalb(1.0, -8);
    private final GoldenComparator cmp = Comparators.topkPair("vals", 0, ATOL);

    @AfterEach
    void close() {
        arena.close();
    }

    private Tensor idx(long... v) {
        return Tensors.of(arena, DType.INT32, new long[] {v.length / 4, 4},
                java.util.Arrays.stream(v).asDoubleStream().toArray());
    }

    private Tensor vals(double... v) {
        return Tensors.of(arena, DType.FP32, new long[] {v.length / 4, 4}, v);
    }

    private CompareResult run(Tensor aIdx, Tensor aVals, Tensor eIdx, Tensor eVals) {
        return cmp.compare(aIdx, eIdx, new CompareContext(Map.of("vals", aVals), Map.of("vals", eVals), Map.of()));
    }

    private final Tensor goldIdx = idx(7, 3, 9, 1, /* row 1 */ 4, 5, 6, 0);
    private final Tensor goldVals = vals(5, 4, 4, 2, /* row 1 */ 9, 8, 7, 6);

    @Test
    void identicalPasses() {
        assertThat(run(idx(7, 3, 9, 1, 4, 5, 6, 0), vals(5, 4, 4, 2, 9, 8, 7, 6), goldIdx, goldVals).passed())
                .isTrue();
    }

    @Test
    void swapWithinATieGroupPasses() {
        CompareResult r = run(idx(7, 9, 3, 1, 4, 5, 6, 0), vals(5, 4, 4, 2, 9, 8, 7, 6), goldIdx, goldVals);
        assertThat(r.passed()).as(r.description()).isTrue();
    }

    @Test
    void tieIsJudgedWithinToleranceOnBothSides() {
        // position 2 picks index 11 instead of 9; its score is 4 + atol (a tie) or one ulp more (not a tie)
        assertThat(run(idx(7, 3, 11, 1, 4, 5, 6, 0), vals(5, 4, 4 + ATOL, 2, 9, 8, 7, 6), goldIdx, goldVals).passed())
                .isTrue();
        CompareResult r = run(idx(7, 3, 11, 1, 4, 5, 6, 0),
                vals(5, 4, Math.nextUp((float) (4 + ATOL)), 2, 9, 8, 7, 6), goldIdx, goldVals);
        assertThat(r.passed()).isFalse();
        assertThat(r.mismatchCount()).isEqualTo(1);
        assertThat(r.firstMismatches()).containsExactly(new long[] {0, 2});
    }

    @Test
    void aDifferentCandidateWithTheSameScoreAtTheCutOffPasses() {
        assertThat(run(idx(7, 3, 9, 12, 4, 5, 6, 0), vals(5, 4, 4, 2, 9, 8, 7, 6), goldIdx, goldVals).passed())
                .isTrue();
    }

    @Test
    void aLowerScoringPickFailsEvenWhenTheValuesStaySorted() {
        // Kernel skipped 9 (score 4) and took 1 and 13 — sorted, but position 2 and 3 scores no longer tie golden's.
        CompareResult r = run(idx(7, 3, 1, 13, 4, 5, 6, 0), vals(5, 4, 2, 1, 9, 8, 7, 6), goldIdx, goldVals);
        assertThat(r.passed()).isFalse();
        assertThat(r.mismatchCount()).isEqualTo(2);
        assertThat(r.firstMismatches()).containsExactly(new long[] {0, 2}, new long[] {0, 3});
        assertThat(r.maxAbsError()).isEqualTo(2.0);
        assertThat(r.description()).startsWith("topk_pair(vals=vals, rtol=0.0, atol=0.00390625): 2/8 positions");
    }

    @Test
    void aRepeatedIndexFails() {
        CompareResult r = run(idx(7, 3, 3, 1, 4, 5, 6, 0), vals(5, 4, 4, 2, 9, 8, 7, 6), goldIdx, goldVals);
        assertThat(r.passed()).isFalse();
        assertThat(r.description()).contains("1 duplicate index");
        // the same index in another row is not a duplicate (and [1, 0] differs from golden's 4 with a tied score)
        assertThat(run(idx(7, 3, 9, 1, 7, 5, 6, 0), vals(5, 4, 4, 2, 9, 8, 7, 6), goldIdx, goldVals)
                .mismatchCount()).isZero();
    }

    @Test
    void missingOrMisshapenValuesAreReported() {
        CompareResult missing = cmp.compare(goldIdx, goldIdx, CompareContext.empty());
        assertThat(missing.passed()).isFalse();
        assertThat(missing.description()).contains("no output named 'vals'");
        Tensor wrongVals = Tensors.f32(arena, 1, 2, 3);
        CompareResult shape = cmp.compare(goldIdx, goldIdx,
                new CompareContext(Map.of("vals", wrongVals), Map.of("vals", goldVals), Map.of()));
        assertThat(shape.description()).contains("must have the index shape [2, 4]");
        CompareResult floats = cmp.compare(goldVals, goldVals,
                new CompareContext(Map.of("vals", goldVals), Map.of("vals", goldVals), Map.of()));
        assertThat(floats.description()).contains("indices must have an integer dtype");
    }
}
