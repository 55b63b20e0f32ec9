package dev.jpto.runtime.tensormap;

/**
 * Overlap of two views of one buffer (spec c.3), allocation-free over primitive arrays.
 * {@link #NO_OVERLAP} creates no edge; {@link #COVERED} (the new view contains the old one in every
 * dimension) and {@link #OTHER} (partial, or not decidable box-wise) both create an edge.
 */
public final class Overlap {
    public static final int NO_OVERLAP = 0;
    public static final int COVERED = 1;
    public static final int OTHER = 2;

    private Overlap() {}

    /**
     * @param n rank of both views (the caller checked ndims and dtype match, else it is OTHER)
     * @param storage elements in the whole buffer
     */
    public static int check(int n, long storage,
                            long aOff, long[] aShape, long[] aStride,
                            long bOff, long[] bShape, long[] bStride) {
        // 1-D element ranges first: disjoint ranges never overlap whatever the layout.
        long aLo = aOff, aHi = aOff, bLo = bOff, bHi = bOff;
        for (int d = 0; d < n; d++) {
            long ae = aShape[d], be = bShape[d];
            if (ae == 0 || be == 0) {
                return NO_OVERLAP;
            }
            long as = (ae - 1) * aStride[d], bs = (be - 1) * bStride[d];
            if (as < 0) aLo += as; else aHi += as;
            if (bs < 0) bLo += bs; else bHi += bs;
        }
        if (aHi < bLo || bHi < aLo) {
            return NO_OVERLAP;
        }
        if (n == 0) {
            return OTHER;
        }
        for (int d = 0; d < n; d++) {
            if (aStride[d] != bStride[d]) {
                return OTHER;
            }
        }
        if (aStride[n - 1] != 1) {
            return OTHER;
        }
        for (int d = 0; d < n - 1; d++) {
            long outer = aStride[d], inner = aStride[d + 1];
            if (inner <= 0 || outer <= 0 || outer % inner != 0) {
                return OTHER;
            }
        }
        long s0 = aStride[0];
        if (s0 != 1 && storage % s0 != 0) {
            return OTHER;
        }
        boolean covers = true;
        long aRest = aOff, bRest = bOff;
        for (int d = 0; d < n; d++) {
            long stride = aStride[d];
            long ref = quot(d == 0 ? storage : aStride[d - 1], d == 0 ? s0 : stride);
            long aStart = quot(aRest, stride);
            long bStart = quot(bRest, stride);
            aRest -= aStart * stride;
            bRest -= bStart * stride;
            long aEnd = aStart + aShape[d], bEnd = bStart + bShape[d];
            if (aEnd > ref || bEnd > ref) {
                return OTHER;
            }
            if (aEnd <= bStart || bEnd <= aStart) {
                return NO_OVERLAP;
            }
            if (aStart > bStart || aEnd < bEnd) {
                covers = false;
            }
        }
        if (aRest != 0 || bRest != 0) {
            return OTHER;
        }
        return covers ? COVERED : OTHER;
    }

    /** {@code x / d}, skipping the slow divide for the unit stride every contiguous innermost dimension has. */
    private static long quot(long x, long d) {
        return d == 1 ? x : x / d;
    }
}
