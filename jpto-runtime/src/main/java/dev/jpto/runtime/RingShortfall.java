package dev.jpto.runtime;

import java.util.Arrays;

/**
 * A ring capacity a run found too small, and how much it needs: the allocator errors (codes 1–4) carry one, so
 * that a layer that knows more (the compiler's static ring plan) can raise the need and still give one size.
 *
 * @param field   the capacity
 * @param ring    the ring
 * @param need    the smallest value that gets past this failure, before the field's advice rounding
 * @param entries the runtime_env entries of {@code field} in force for the run (0 = default)
 */
public record RingShortfall(RingField field, int ring, long need, long[] entries) {
    public RingShortfall {
        entries = entries.clone();
    }

    /**
     * The shortfall of a ring whose capacity {@code capacity} did not hold {@code need}: at least one more than
     * the capacity, as a failure at a need the ring seems to hold (the heap's wrap loss, say) still needs more.
     */
    public static RingShortfall of(RingField field, int ring, long capacity, long need, long[] entries) {
        return new RingShortfall(field, ring, Math.max(need, capacity + 1), entries);
    }

    /** The value to set: {@link RingField#advised} of the need. */
    public long advised() {
        return field.advised(need);
    }

    /** The same shortfall with a need of at least {@code other}. */
    public RingShortfall atLeast(long other) {
        return new RingShortfall(field, ring, Math.max(need, other), entries);
    }

    /** {@code set ring_heap for ring 1 to at least 17MiB (runtime_cfg ring_heap=0,17MiB,0,0)}. */
    public String advice() {
        long v = advised();
        return "set " + field.key() + " for ring " + ring + " to at least " + field.format(v) + " (runtime_cfg "
                + field.runtimeCfg(entries, ring, v) + ")";
    }

    @Override
    public long[] entries() {
        return entries.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RingShortfall s && field == s.field && ring == s.ring && need == s.need
                && Arrays.equals(entries, s.entries);
    }

    @Override
    public int hashCode() {
        return (field.hashCode() * 31 + ring) * 31 + Long.hashCode(need) + Arrays.hashCode(entries);
    }

    @Override
    public String toString() {
        return advice();
    }
}
