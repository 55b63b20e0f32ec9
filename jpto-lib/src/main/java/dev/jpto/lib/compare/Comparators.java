package dev.jpto.lib.compare;

/**
 * Factories for the golden comparators, named as in pypto-lib's golden module. Each returns an immutable
 * {@link GoldenComparator}; see the record for its exact rule.
 */
public final class Comparators {
    private Comparators() {
    }

    /** Every element within {@code atol + rtol·|expected|}; both-NaN counts as equal. See {@link Allclose}. */
    public static GoldenComparator allclose(double rtol, double atol) {
        return new Allclose(rtol, atol);
    }

    /** At most {@code maxErrorRatio} of the elements outside the allclose tolerance. See {@link RatioAllclose}. */
    public static GoldenComparator ratioAllclose(double rtol, double atol, double maxErrorRatio) {
        return new RatioAllclose(rtol, atol, maxErrorRatio);
    }

    /** pypto-lib's default budget: 0.5% of elements may be outliers. */
    public static GoldenComparator ratioAllclose(double rtol, double atol) {
        return new RatioAllclose(rtol, atol, 0.005);
    }

    /**
     * At most {@code pctThd} of the elements with floored relative difference above {@code diffThd}, and the worst
     * of them below {@code maxDiffHd}. See {@link RatioReldiff}.
     */
    public static GoldenComparator ratioReldiff(double diffThd, double pctThd, double maxDiffHd) {
        return new RatioReldiff(diffThd, pctThd, maxDiffHd);
    }

    /** {@link #ratioReldiff(double, double, double)} without a cap on the worst element. */
    public static GoldenComparator ratioReldiff(double diffThd, double pctThd) {
        return new RatioReldiff(diffThd, pctThd, Double.POSITIVE_INFINITY);
    }

    /**
     * A block-major pool written only at the rows named by input {@code mappingName}: unmapped rows bit-exact,
     * mapped rows by {@code rows}. See {@link MappedPool}.
     */
    public static GoldenComparator mappedPool(String mappingName, long[] mappingShape, long blockSize,
            boolean leadingRankAxis, GoldenComparator rows) {
        return new MappedPool(mappingName, mappingShape, blockSize, leadingRankAxis, rows);
    }

    /** Top-k indices that may differ from golden only where the paired values tie. See {@link TopkPair}. */
    public static GoldenComparator topkPair(String valsName, double rtol, double atol) {
        return new TopkPair(valsName, rtol, atol);
    }

    /**
     * Compares only the leading {@code validRows} along {@code axis} with {@code inner}; with {@code zeroTail} the
     * rest must be zero in the actual output. See {@link ValidPrefix}.
     */
    public static GoldenComparator validPrefix(long validRows, int axis, boolean zeroTail, GoldenComparator inner) {
        return new ValidPrefix(validRows, axis, zeroTail, inner);
    }
}
