package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;

/**
 * pypto-lib's {@code ratio_allclose}: the allclose tolerance per element, but up to a fraction of elements may
 * exceed it.
 *
 * <pre>
 *   bad(i)  = |actual_i − expected_i| &gt; atol + rtol·|expected_i|
 *   budget  = round_half_even(maxErrorRatio · numel)
 *   pass   ⇔ count(bad) ≤ budget  and no NaN/Inf on either side
 * </pre>
 *
 * Any NaN or Inf in actual or expected fails regardless of the budget (as upstream). An empty tensor passes.
 * Arithmetic is in double on the tensors' values (upstream uses fp32 tensors; decisions can differ only for an
 * element within an fp32 rounding of its tolerance).
 */
public record RatioAllclose(double rtol, double atol, double maxErrorRatio) implements GoldenComparator {
    public RatioAllclose {
        ElementScan.requireTolerance("ratio_allclose", "rtol", rtol);
        ElementScan.requireTolerance("ratio_allclose", "atol", atol);
        ElementScan.requireFraction("ratio_allclose", "max_error_ratio", maxErrorRatio);
    }

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        String shape = ElementScan.shapeProblem(actual, expected);
        if (shape != null) {
            return CompareResult.structural(name(), shape);
        }
        ElementScan.Stats s = ElementScan.scan(actual, expected,
                (a, e) -> !(Math.abs(a - e) <= atol + rtol * Math.abs(e)));
        if (s.anyNonFinite()) {
            return new CompareResult(false, s.numel(), s.bad(), s.maxAbs(), s.maxRel(), s.firstBad(),
                    name() + ": " + s.nonFiniteText() + ", " + s.errorsText() + s.firstText());
        }
        long budget = ElementScan.budget(maxErrorRatio, s.numel());
        boolean pass = s.bad() <= budget;
        String text = name() + ": " + s.bad() + "/" + s.numel() + " elements outside atol + rtol*|expected|"
                + " (allowed " + budget + "), " + s.errorsText() + s.firstText();
        return new CompareResult(pass, s.numel(), s.bad(), s.maxAbs(), s.maxRel(), s.firstBad(), text);
    }

    @Override
    public String name() {
        return "ratio_allclose(rtol=" + rtol + ", atol=" + atol + ", max_error_ratio=" + maxErrorRatio + ")";
    }
}
