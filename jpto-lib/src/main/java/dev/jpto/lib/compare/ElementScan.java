package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** One pass over a pair of equally shaped tensors: counts what a rule calls bad and gathers error statistics. */
final class ElementScan {
    /** Whether the pair (actual, expected) breaks the comparator's element rule. */
    @FunctionalInterface
    interface Rule {
        boolean bad(double actual, double expected);
    }

    /**
     * Statistics of one scan; {@code firstBad} holds C-order multi-indices; {@code badExpectedZero} counts the bad
     * elements whose expected value is 0 (and actual finite): max_rel leaves them out, having no relative error.
     */
    record Stats(long numel, long bad, double maxAbs, double maxRel, List<long[]> firstBad, long nanActual,
            long infActual, long nanExpected, long infExpected, long badExpectedZero) {
        boolean anyNonFinite() {
            return nanActual + infActual + nanExpected + infExpected > 0;
        }

        /** pypto-lib's wording for the hard non-finite failure of the ratio comparators. */
        String nonFiniteText() {
            return "illegal values in comparison: actual: NaN=" + nanActual + " Inf=" + infActual
                    + "; expected: NaN=" + nanExpected + " Inf=" + infExpected;
        }

        /** "max_abs=… max_rel=…", saying which mismatches max_rel leaves out (a max_rel near 0 misleads else). */
        String errorsText() {
            String text = "max_abs=" + CompareResult.num(maxAbs) + " max_rel=" + CompareResult.num(maxRel);
            return badExpectedZero == 0 ? text : text + " (leaves out the " + badExpectedZero + " of " + bad
                    + " mismatches whose expected value is 0)";
        }

        String firstText() {
            if (firstBad.isEmpty()) {
                return "";
            }
            StringBuilder sb = new StringBuilder(" first at");
            for (long[] i : firstBad) {
                sb.append(' ').append(Arrays.toString(i));
            }
            return sb.toString();
        }
    }

    private ElementScan() {
    }

    static Stats scan(Tensor actual, Tensor expected, Rule rule) {
        long n = actual.numel();
        long[] shape = actual.shape();
        long bad = 0;
        double maxAbs = 0;
        double maxRel = 0;
        long nanA = 0;
        long infA = 0;
        long nanE = 0;
        long infE = 0;
        long badZero = 0;
        List<long[]> first = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            double a = at(actual, i);
            double e = at(expected, i);
            if (Double.isNaN(a)) {
                nanA++;
            } else if (Double.isInfinite(a)) {
                infA++;
            }
            if (Double.isNaN(e)) {
                nanE++;
            } else if (Double.isInfinite(e)) {
                infE++;
            }
            if (Double.isFinite(a) && Double.isFinite(e)) {
                double abs = Math.abs(a - e);
                maxAbs = Math.max(maxAbs, abs);
                if (e != 0) {
                    maxRel = Math.max(maxRel, abs / Math.abs(e));
                }
            }
            if (rule.bad(a, e)) {
                bad++;
                if (e == 0 && Double.isFinite(a)) {
                    badZero++;
                }
                if (first.size() < CompareResult.MAX_SHOWN) {
                    first.add(unravel(i, shape));
                }
            }
        }
        return new Stats(n, bad, n == 0 ? Double.NaN : maxAbs, n == 0 ? Double.NaN : maxRel, first, nanA, infA,
                nanE, infE, badZero);
    }

    /** Element {@code flat} (C order) as a double; contiguous tensors skip the per-dimension index walk. */
    static double at(Tensor t, long flat) {
        if (t.isContiguous()) {
            return t.dtype().loadDouble(t.buffer(), (t.offset() + flat) * t.dtype().byteSize());
        }
        return t.getDouble(flat);
    }

    static long[] unravel(long flat, long[] shape) {
        long[] idx = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = flat % shape[d];
            flat /= shape[d];
        }
        return idx;
    }

    /** Null if the shapes agree, else the failure text. */
    static String shapeProblem(Tensor actual, Tensor expected) {
        if (Arrays.equals(actual.shape(), expected.shape())) {
            return null;
        }
        return "shape mismatch: actual " + Arrays.toString(actual.shape()) + " vs expected "
                + Arrays.toString(expected.shape());
    }

    /** Python's {@code round()} (half to even), which pypto-lib uses to turn a ratio into a point budget. */
    static long budget(double ratio, long numel) {
        return (long) Math.rint(ratio * numel);
    }

    static void requireTolerance(String comparator, String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(comparator + " " + name + " must be a finite number >= 0: " + name
                    + "=" + value);
        }
    }

    static void requireFraction(String comparator, String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(comparator + " " + name + " must be in [0, 1]: " + name + "="
                    + value + " (a fraction of elements, e.g. 0.005 for 0.5%)");
        }
    }
}
