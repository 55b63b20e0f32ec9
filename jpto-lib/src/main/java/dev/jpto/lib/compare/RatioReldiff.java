package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;

/**
 * pypto-lib's {@code ratio_reldiff}: a floored relative difference per element, a budget of elements above the
 * threshold, and an optional hard cap on the worst one.
 *
 * <pre>
 *   a        = |actual − expected|
 *   b        = max(|actual|, |expected|, 2^-14 / diffThd) + 1e-9
 *   rdiff    = a            if a &lt; diffThd
 *              a / b        otherwise
 *   bad(i)   = rdiff_i &gt; diffThd
 *   budget   = round_half_even(pctThd · numel)
 *   pass    ⇔ count(bad) ≤ budget  and  max(rdiff over bad) &lt; maxDiffHd  and no NaN/Inf on either side
 * </pre>
 *
 * The floor {@code 2^-14 / diffThd} keeps rdiff finite near zero; an absolute difference below diffThd is never
 * bad. Arithmetic is in double (upstream: fp32). An empty tensor passes.
 */
public record RatioReldiff(double diffThd, double pctThd, double maxDiffHd) implements GoldenComparator {
    public RatioReldiff {
        if (!(diffThd > 0) || Double.isInfinite(diffThd)) {
            throw new IllegalArgumentException("ratio_reldiff diff_thd must be a finite number > 0: diff_thd="
                    + diffThd + " (e.g. 0.01 for 1%)");
        }
        ElementScan.requireFraction("ratio_reldiff", "pct_thd", pctThd);
        if (!(maxDiffHd > 0)) {
            throw new IllegalArgumentException("ratio_reldiff max_diff_hd must be > 0 (Infinity for no cap):"
                    + " max_diff_hd=" + maxDiffHd);
        }
    }

    /** The floored relative difference of one element. */
    public double rdiff(double actual, double expected) {
        double a = Math.abs(actual - expected);
        if (a < diffThd) {
            return a;
        }
        double floor = Math.scalb(1.0, -14) / diffThd;
        double b = Math.max(Math.max(Math.abs(actual), Math.abs(expected)), floor) + 1e-9;
        return a / b;
    }

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        String shape = ElementScan.shapeProblem(actual, expected);
        if (shape != null) {
            return CompareResult.structural(name(), shape);
        }
        double[] worst = {0};
        ElementScan.Stats s = ElementScan.scan(actual, expected, (a, e) -> {
            double r = rdiff(a, e);
            if (r > diffThd) {
                worst[0] = Math.max(worst[0], r);
                return true;
            }
            return Double.isNaN(r);
        });
        if (s.anyNonFinite()) {
            return new CompareResult(false, s.numel(), s.bad(), s.maxAbs(), s.maxRel(), s.firstBad(),
                    name() + ": " + s.nonFiniteText() + ", " + s.errorsText() + s.firstText());
        }
        long budget = ElementScan.budget(pctThd, s.numel());
        boolean countOk = s.bad() <= budget;
        boolean capOk = worst[0] < maxDiffHd;
        String why = countOk && capOk ? "" : countOk ? " — worst rdiff reaches max_diff_hd"
                : capOk ? " — too many elements above diff_thd" : " — too many elements and worst rdiff over cap";
        String text = name() + ": " + s.bad() + "/" + s.numel() + " elements with rdiff > " + diffThd
                + " (allowed " + budget + "), worst_rdiff=" + CompareResult.num(worst[0]) + ", " + s.errorsText()
                + s.firstText() + why;
        return new CompareResult(countOk && capOk, s.numel(), s.bad(), s.maxAbs(), s.maxRel(), s.firstBad(), text);
    }

    @Override
    public String name() {
        return "ratio_reldiff(diff_thd=" + diffThd + ", pct_thd=" + pctThd + ", max_diff_hd=" + maxDiffHd + ")";
    }
}
