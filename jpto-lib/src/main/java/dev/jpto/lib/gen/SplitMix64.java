package dev.jpto.lib.gen;

import java.nio.charset.StandardCharsets;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

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
 * The state is a counter ({@code state0 + k·GAMMA} before the k-th draw), so {@link #skip} jumps ahead in O(1):
 * that is what lets a long stream be produced in independent chunks, in parallel, with the same bits.
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class SplitMix64 {
    private static final long GAMMA = 0x9E3779B97F4A7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;
    private static final VectorSpecies<Long> L = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /** (j + 1)·GAMMA for lane j: the state increments of one vector step's lanes. */
    private static final long[] LANE_GAMMAS = new long[L.length()];

    static {
        for (int j = 0; j < LANE_GAMMAS.length; j++) {
            LANE_GAMMAS[j] = (j + 1) * GAMMA;
        }
    }

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

    /** A copy of this stream at its current position; the two then advance independently. */
    public SplitMix64 copy() {
        return new SplitMix64(state);
    }

    /** Advances the stream by {@code draws} draws (of {@link #nextLong} and the methods built on one draw). */
    public void skip(long draws) {
        state += draws * GAMMA;
    }

    /**
     * {@code len} draws of {@link #nextDouble} into {@code dst[off, off + len)}: the same values as a loop, computed
     * {@code L} lanes at a time (lane j of a step is draw k + j, whose state is a counter).
     */
    public void nextDoubles(double[] dst, int off, int len) {
        int lanes = L.length();
        int i = 0;
        if (lanes == D.length() && len >= lanes) {
            LongVector s = LongVector.fromArray(L, LANE_GAMMAS, 0).add(state);
            LongVector step = LongVector.broadcast(L, GAMMA * lanes);
            for (; i + lanes <= len; i += lanes) {
                LongVector z = s.lanewise(VectorOperators.XOR, s.lanewise(VectorOperators.LSHR, 30))
                        .mul(0xBF58476D1CE4E5B9L);
                z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 27)).mul(0x94D049BB133111EBL);
                z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 31));
                ((DoubleVector) z.lanewise(VectorOperators.LSHR, 11).convert(VectorOperators.L2D, 0))
                        .mul(DOUBLE_UNIT).intoArray(dst, off + i);
                s = s.add(step);
            }
            state += (long) i * GAMMA;
        }
        for (; i < len; i++) {
            dst[off + i] = nextDouble();
        }
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
