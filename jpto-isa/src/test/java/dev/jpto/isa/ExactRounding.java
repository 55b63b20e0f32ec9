package dev.jpto.isa;

import java.math.BigDecimal;

/**
 * Independent reference for rounding to a 16-bit float format: the sorted list of every finite
 * non-negative value of the format (decoded by bit layout, not by the code under test), and round to
 * nearest by comparing against exact midpoints in BigDecimal; ties go to the even bit pattern.
 */
final class ExactRounding {
    private final BigDecimal[] values;
    private final int infBits;

    private ExactRounding(int exponentBits, int fractionBits) {
        int bias = (1 << (exponentBits - 1)) - 1;
        int maxExp = (1 << exponentBits) - 1;
        int count = maxExp << fractionBits; // patterns below +Inf
        values = new BigDecimal[count];
        for (int bits = 0; bits < count; bits++) {
            int e = bits >>> fractionBits;
            long f = bits & ((1L << fractionBits) - 1);
            // subnormal: f * 2^(1-bias-fractionBits); normal: (2^fractionBits + f) * 2^(e-bias-fractionBits)
            long mant = e == 0 ? f : (1L << fractionBits) + f;
            int exp = (e == 0 ? 1 : e) - bias - fractionBits;
            values[bits] = new BigDecimal(mant).multiply(exp >= 0 ? BigDecimal.valueOf(2).pow(exp) : new BigDecimal("0.5").pow(-exp));
        }
        infBits = count;
    }

    static final ExactRounding BF16 = new ExactRounding(8, 7);
    static final ExactRounding FP16 = new ExactRounding(5, 10);

    /** Exact value of a non-negative finite bit pattern. */
    BigDecimal value(int bits) {
        return values[bits];
    }

    /** Bits of the nearest value to {@code x} (finite), ties to even, with the given sign bit. */
    short round(BigDecimal x, boolean negative) {
        BigDecimal m = x.abs();
        int lo = 0;
        int hi = values.length - 1;
        if (m.compareTo(values[hi]) >= 0) {
            // above the largest finite value: the half-way point to the next (virtual) step is the overflow threshold
            BigDecimal half = values[hi].subtract(values[hi - 1]).divide(BigDecimal.valueOf(2));
            int bits = m.compareTo(values[hi].add(half)) >= 0 ? infBits : hi;
            return sign(bits, negative);
        }
        while (hi - lo > 1) { // invariant: values[lo] <= m < values[hi]
            int mid = (lo + hi) >>> 1;
            if (values[mid].compareTo(m) <= 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        BigDecimal mid = values[lo].add(values[hi]).divide(BigDecimal.valueOf(2));
        int c = m.compareTo(mid);
        int bits = c < 0 ? lo : c > 0 ? hi : ((lo & 1) == 0 ? lo : hi);
        return sign(bits, negative);
    }

    short round(double x) {
        return round(new BigDecimal(x), x < 0 || (x == 0 && 1 / x < 0));
    }

    private short sign(int bits, boolean negative) {
        return (short) (negative ? bits | 0x8000 : bits);
    }
}
