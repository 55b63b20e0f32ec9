package dev.jpto.isa.op;

import java.util.Arrays;

/**
 * An integer index expression: {@code constant + Σ coeffs[i] × scalar[slots[i]]}, evaluated when a kernel
 * runs. Slots name scalar registers (kernel scalar parameters, then loop variables).
 */
public record Idx(long constant, int[] slots, long[] coeffs) {
    public Idx {
        if (slots.length != coeffs.length) {
            throw new IllegalArgumentException("Idx needs one coefficient per slot: " + slots.length + " slots, "
                    + coeffs.length + " coefficients");
        }
        slots = slots.clone();
        coeffs = coeffs.clone();
    }

    private static final int[] NO_SLOTS = {};
    private static final long[] NO_COEFFS = {};

    public static Idx of(long constant) {
        return new Idx(constant, NO_SLOTS, NO_COEFFS);
    }

    /** {@code coeff × scalar[slot] + constant}. */
    public static Idx slot(int slot, long coeff, long constant) {
        return new Idx(constant, new int[] {slot}, new long[] {coeff});
    }

    public boolean isConstant() {
        return slots.length == 0;
    }

    /** Evaluates against a scalar register file (values are truncated toward zero). */
    public long eval(double[] scalars) {
        long v = constant;
        for (int i = 0; i < slots.length; i++) {
            v += coeffs[i] * (long) scalars[slots[i]];
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Idx other && constant == other.constant && Arrays.equals(slots, other.slots)
                && Arrays.equals(coeffs, other.coeffs);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(constant) * 31 * 31 + Arrays.hashCode(slots) * 31 + Arrays.hashCode(coeffs);
    }

    @Override
    public String toString() {
        return "Idx[" + constant + " + " + Arrays.toString(coeffs) + "·s" + Arrays.toString(slots) + "]";
    }
}
