package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * For the index output of a top-k that also emits its values (named {@code valsName} among the outputs):
 * indices may differ from the golden only where the scores tie, so legal tie-break swaps pass and real misses
 * fail.
 *
 * <p>Rule, per row along the last axis (the k axis), at each position {@code i}:
 * <ul>
 *   <li>{@code actualIdx[i] == expectedIdx[i]}: fine;</li>
 *   <li>otherwise the two picks must tie: {@code actualVals[i]} and {@code expectedVals[i]} (the scores the kernel
 *       and the golden report for their picks at {@code i}) must be close by the {@link Allclose} rule with
 *       {@code rtol}, {@code atol}. A permutation within a group of tied scores, or a different candidate of the
 *       same score at the cut-off, passes; a candidate with a strictly different score fails;</li>
 *   <li>an index repeated within an actual row is always a mismatch (at its second position).</li>
 * </ul>
 * So the indices are compared as sets within each tie group. The values tensor itself should be checked by its own
 * comparator (positionally, e.g. allclose), which is what catches a kernel reporting a wrong score; max abs/rel
 * errors in the result are those of the paired values.
 *
 * <p>Upstream pypto-lib's {@code topk_pair_compare} instead accepts a mismatched position when the actual values
 * stay monotonic around it, without consulting the golden values; the rule here is stricter: it also fails a
 * kernel that picks a lower-scoring candidate and reports its (correct, lower) score in sorted order.
 */
public record TopkPair(String valsName, double rtol, double atol) implements GoldenComparator {
    public TopkPair {
        ElementScan.requireTolerance("topk_pair", "rtol", rtol);
        ElementScan.requireTolerance("topk_pair", "atol", atol);
    }

    @Override
    public CompareResult compare(Tensor actualIdx, Tensor expectedIdx, CompareContext context) {
        String shapeProblem = ElementScan.shapeProblem(actualIdx, expectedIdx);
        if (shapeProblem != null) {
            return CompareResult.structural(name(), "index " + shapeProblem);
        }
        if (!actualIdx.dtype().isInteger() || !expectedIdx.dtype().isInteger()) {
            return CompareResult.structural(name(), "indices must have an integer dtype, got actual "
                    + actualIdx.dtype().text() + " and expected " + expectedIdx.dtype().text());
        }
        if (actualIdx.rank() == 0) {
            return CompareResult.structural(name(), "indices must have a k axis (rank >= 1), got a 0-d tensor");
        }
        Tensor aVals = context.actualOutputs().get(valsName);
        Tensor eVals = context.expectedOutputs().get(valsName);
        if (aVals == null || eVals == null) {
            return CompareResult.structural(name(), "misconfigured: no output named '" + valsName + "' (outputs: "
                    + new TreeSet<>(context.actualOutputs().keySet()) + ", golden: "
                    + new TreeSet<>(context.expectedOutputs().keySet()) + ")");
        }
        if (!Arrays.equals(aVals.shape(), actualIdx.shape()) || !Arrays.equals(eVals.shape(), actualIdx.shape())) {
            return CompareResult.structural(name(), "values '" + valsName + "' must have the index shape "
                    + Arrays.toString(actualIdx.shape()) + ", got actual " + Arrays.toString(aVals.shape())
                    + " and golden " + Arrays.toString(eVals.shape()));
        }
        Allclose tie = new Allclose(rtol, atol);
        long[] shape = actualIdx.shape();
        long k = shape[shape.length - 1];
        long n = actualIdx.numel();
        long bad = 0;
        long duplicates = 0;
        List<long[]> first = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (long flat = 0; flat < n; flat++) {
            if (flat % k == 0) {
                seen.clear();
            }
            long a = actualIdx.dtype().loadLong(actualIdx.buffer(), actualIdx.byteOffsetOfFlat(flat));
            long e = expectedIdx.dtype().loadLong(expectedIdx.buffer(), expectedIdx.byteOffsetOfFlat(flat));
            boolean dup = !seen.add(a);
            boolean illegal = a != e && !tie.close(ElementScan.at(aVals, flat), ElementScan.at(eVals, flat));
            if (dup || illegal) {
                bad++;
                duplicates += dup ? 1 : 0;
                if (first.size() < CompareResult.MAX_SHOWN) {
                    first.add(ElementScan.unravel(flat, shape));
                }
            }
        }
        ElementScan.Stats vals = ElementScan.scan(aVals, eVals, (x, y) -> false);
        String firstText = first.stream().map(Arrays::toString).reduce((x, y) -> x + " " + y).map(s -> " first at " + s)
                .orElse("");
        String text = name() + ": " + bad + "/" + n + " positions whose index differs from golden without a score"
                + " tie" + (duplicates > 0 ? " (" + duplicates + " duplicate index)" : "") + ", values "
                + vals.errorsText() + firstText;
        return new CompareResult(bad == 0, n, bad, vals.maxAbs(), vals.maxRel(), first, text);
    }

    @Override
    public String name() {
        return "topk_pair(vals=" + valsName + ", rtol=" + rtol + ", atol=" + atol + ")";
    }
}
