package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * pypto-lib's {@code valid_rows} / {@code valid_axis} / {@code zero_tail} options, as a wrapper: only the leading
 * {@code validRows} entries along {@code axis} are compared by {@code inner}, so a padded buffer's inactive tail
 * does not dilute a ratio verdict. With {@code zeroTail}, every actual value in the dropped tail must be zero (a
 * kernel writing past the active count fails). {@code validRows = 0} compares nothing and passes (tail check
 * aside). Indices in the result are those of the whole tensor (the prefix starts at 0).
 */
public record ValidPrefix(long validRows, int axis, boolean zeroTail, GoldenComparator inner)
        implements GoldenComparator {
    public ValidPrefix {
        if (validRows < 0) {
            throw new IllegalArgumentException("valid_rows must be >= 0: valid_rows=" + validRows);
        }
        if (axis < 0) {
            throw new IllegalArgumentException("valid_axis must be >= 0: valid_axis=" + axis);
        }
    }

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        String shapeProblem = ElementScan.shapeProblem(actual, expected);
        if (shapeProblem != null) {
            return CompareResult.structural(name(), shapeProblem);
        }
        if (axis >= actual.rank()) {
            return CompareResult.structural(name(), "valid_axis=" + axis + " is out of range for rank "
                    + actual.rank());
        }
        long total = actual.shape(axis);
        if (validRows > total) {
            return CompareResult.structural(name(), "valid_rows=" + validRows + " out of range for axis " + axis
                    + " of length " + total);
        }
        long[] starts = new long[actual.rank()];
        long[] extents = actual.shape();
        if (zeroTail && validRows < total) {
            starts[axis] = validRows;
            extents[axis] = total - validRows;
            Tensor tail = actual.slice(starts, extents);
            long nonzero = 0;
            List<long[]> first = new ArrayList<>();
            for (long i = 0; i < tail.numel(); i++) {
                if (ElementScan.at(tail, i) != 0) {
                    nonzero++;
                    if (first.size() < CompareResult.MAX_SHOWN) {
                        long[] idx = ElementScan.unravel(i, extents);
                        idx[axis] += validRows;
                        first.add(idx);
                    }
                }
            }
            if (nonzero > 0) {
                return new CompareResult(false, tail.numel(), nonzero, Double.NaN, Double.NaN, first, name()
                        + ": inactive tail contains " + nonzero + " nonzero values, first at "
                        + first.stream().map(java.util.Arrays::toString).reduce((a, b) -> a + " " + b).orElse(""));
            }
            starts[axis] = 0;
        }
        extents[axis] = validRows;
        if (validRows == 0) {
            return new CompareResult(true, 0, 0, Double.NaN, Double.NaN, List.of(), name() + ": nothing to compare");
        }
        CompareResult r = inner.compare(actual.slice(starts, extents), expected.slice(starts, extents), context);
        return new CompareResult(r.passed(), r.numel(), r.mismatchCount(), r.maxAbsError(), r.maxRelError(),
                r.firstMismatches(), "valid_rows=" + validRows + " of " + total + " on axis " + axis + ": "
                + r.description());
    }

    @Override
    public String name() {
        return "valid_prefix(valid_rows=" + validRows + ", valid_axis=" + axis + ", zero_tail=" + zeroTail + ", "
                + inner.name() + ")";
    }
}
