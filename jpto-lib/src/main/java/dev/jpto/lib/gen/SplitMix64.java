package dev.jpto.lib.gen;

import java.nio.charset.StandardCharsets;

/**
 * The SplitMix64 generator (Steele, Lea, Flood 2014; the same output function as
 * {@link java.util.SplittableRandom}), with the derivations jpto's input generators use. Everything here is
 * specified to the bit, so a seed gives the same data on every platform and JDK:
 *
 * <pre>
 *   nextLong:      state += 0x9E3779B97F4A7C15;  return mix64(state)
 *   mix64(z):      z = (z ^ (z &gt;&gt;&gt; 30)) * 0xBF58476D1CE4E5B9
 *                  z = (z ^ (z &gt;&gt;&gt; 27)) * 0x94D049BB133111EB
 *                  return z ^ (z &gt;&gt;&gt; 31)
 *   nextDouble:    (nextLong() &gt;&gt;&gt; 11) · 2^-53                       in [0, 1)
 *   nextDoubleOC:  ((nextLong() &gt;&gt;&gt; 11) + 1) · 2^-53                 in (0, 1]
 *   nextBounded(b): Lemire's multiply-shift with rejection, b unsigned:
 *                  x = nextLong(); m = x·b (128-bit); while low64(m) &lt; (2^64 − b) mod b: redraw
 *                  return high64(m)                                     in [0, b)
 *   stream(seed, name): state0 = mix64(seed ^ mix64(fnv1a64(utf8(name))))
 *   fnv1a64(bytes): h = 0xCBF29CE484222325; for each byte: h = (h ^ byte) · 0x100000001B3
 * </pre>
 *
 * Not thread-safe: one instance per tensor being filled.
 */
public final class SplitMix64 {
    private static final long GAMMA = 0x9E3779B97F4A7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long state;

    public SplitMix64(long state) {
        this.state = state;
    }

    /** The independent stream for tensor {@code name} under {@code seed}. */
    public static SplitMix64 stream(long seed, String name) {
        return new SplitMix64(mix64(seed ^ mix64(fnv1a64(name))));
    }

    public long nextLong() {
        state += GAMMA;
        return mix64(state);
    }

    /** Uniform in [0, 1) with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /** Uniform in (0, 1]: never 0, so its logarithm is finite. */
    public double nextDoubleOpenClosed() {
        return ((nextLong() >>> 11) + 1) * DOUBLE_UNIT;
    }

    /** Uniform in [0, bound) for {@code bound} read as unsigned 64-bit (so any range of longs fits); bound ≠ 0. */
    public long nextBounded(long bound) {
        if (bound == 0) {
            throw new IllegalArgumentException("bound must be non-zero (read as unsigned 64-bit)");
        }
        long x = nextLong();
        long low = x * bound;
        if (Long.compareUnsigned(low, bound) < 0) {
            long threshold = Long.remainderUnsigned(-bound, bound);
            while (Long.compareUnsigned(low, threshold) < 0) {
                x = nextLong();
                low = x * bound;
            }
        }
        return Math.unsignedMultiplyHigh(x, bound);
    }

    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** 64-bit FNV-1a of the UTF-8 bytes of {@code text}. */
    public static long fnv1a64(String text) {
        long h = 0xCBF29CE484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        return h;
    }
}
