package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;

/**
 * Every element must satisfy numpy's {@code isclose} rule {@code |a − b| ≤ atol + rtol·|b|} (a actual, b
 * expected; asymmetric, like numpy and torch). Non-finite values: an element matches if both are NaN (numpy's
 * {@code equal_nan=True}: a golden that deliberately produces NaN, e.g. a fully masked row, is reproduced), or
 * if both are the same infinity; NaN against a number, or an infinity against anything else, is a mismatch.
 * Arithmetic is in double on the tensors' values.
 */
public record Allclose(double rtol, double atol) implements GoldenComparator {
    public Allclose {
        ElementScan.requireTolerance("allclose", "rtol", rtol);
        ElementScan.requireTolerance("allclose", "atol", atol);
    }

    /** The element rule, exposed for tests and for comparators built on it. */
    public boolean close(double actual, double expected) {
        if (Double.isNaN(actual) || Double.isNaN(expected)) {
            return Double.isNaN(actual) && Double.isNaN(expected);
        }
        if (Double.isInfinite(actual) || Double.isInfinite(expected)) {
            return actual == expected;
        }
        return Math.abs(actual - expected) <= atol + rtol * Math.abs(expected);
    }

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        String shape = ElementScan.shapeProblem(actual, expected);
        if (shape != null) {
            return CompareResult.structural(name(), shape);
        }
        ElementScan.Stats s = ElementScan.scan(actual, expected, (a, e) -> !close(a, e));
        boolean pass = s.bad() == 0;
        String text = name() + ": " + s.bad() + "/" + s.numel() + " elements outside atol + rtol*|expected|, "
                + s.errorsText() + s.firstText();
        return new CompareResult(pass, s.numel(), s.bad(), s.maxAbs(), s.maxRel(), s.firstBad(), text);
    }

    @Override
    public String name() {
        return "allclose(rtol=" + rtol + ", atol=" + atol + ")";
    }
}
