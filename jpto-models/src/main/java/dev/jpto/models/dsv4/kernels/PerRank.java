package dev.jpto.models.dsv4.kernels;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.compare.GoldenComparator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a per-rank comparator to every rank of an output stacked [N_RANKS, …] (as the original's L3 programs
 * stack every per-rank tensor). Each rank sees its own slice of the stacked inputs ({@code stackedInputs}) and,
 * under the same names, its slice of the expected outputs in {@code expectedAsInputs} (e.g. the golden's x_attn
 * for the FFN-share check; input name → output name); unstacked inputs are shared.
 */
record PerRank(GoldenComparator inner, int ranks, Set<String> stackedInputs, Map<String, String> expectedAsInputs)
        implements GoldenComparator {

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        if (actual.rank() < 2 || actual.shape(0) != ranks || expected.shape(0) != ranks) {
            return new CompareResult(false, actual.numel(), 0, Double.NaN, Double.NaN, List.of(), name()
                    + ": expected a tensor stacked over " + ranks + " ranks, got " + actual + " / " + expected);
        }
        boolean pass = true;
        long bad = 0;
        double worst = 0;
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            Map<String, Tensor> in = new HashMap<>(context.inputs());
            for (String n : stackedInputs) {
                in.put(n, rank(context.inputs().get(n), r));
            }
            for (Map.Entry<String, String> e : expectedAsInputs.entrySet()) {
                in.put(e.getKey(), rank(context.expectedOutputs().get(e.getValue()), r));
            }
            CompareResult c = inner.compare(rank(actual, r), rank(expected, r),
                    new CompareContext(context.actualOutputs(), context.expectedOutputs(), in));
            pass &= c.passed();
            bad += c.mismatchCount();
            if (!Double.isNaN(c.maxAbsError())) {
                worst = Math.max(worst, c.maxAbsError());
            }
            lines.add("rank " + r + " " + (c.passed() ? "PASS" : "FAIL") + ": " + c.description());
        }
        return new CompareResult(pass, actual.numel(), bad, worst, Double.NaN, List.of(), String.join(" | ", lines));
    }

    /** Rank r's slice of a stacked tensor, without the rank dimension. */
    static Tensor rank(Tensor t, int r) {
        if (t == null) {
            return null;
        }
        long[] shape = t.shape();
        long[] starts = new long[shape.length];
        long[] ext = shape.clone();
        starts[0] = r;
        ext[0] = 1;
        return t.slice(starts, ext).reshape(java.util.Arrays.copyOfRange(shape, 1, shape.length));
    }

    @Override
    public String name() {
        return "per_rank(" + ranks + ", " + inner.name() + ")";
    }
}
