package dev.jpto.runtime.sched;

/** Formatting shared by error messages. */
public final class Diagnostics {
    private Diagnostics() {}

    /** {@code 0x0000000100000007 (ring 1, local 7)}: the raw 64-bit id and its halves. */
    public static String taskName(long raw) {
        return String.format("0x%016x (ring %d, local %d)", raw, raw >>> 32, raw & 0xFFFF_FFFFL);
    }
}
