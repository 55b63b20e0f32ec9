package dev.jpto.lib.gen;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.stream.IntStream;

/**
 * Fills a contiguous tensor in fixed chunks of {@value #CHUNK} elements on the common fork-join pool. A chunk's
 * values depend only on its first element's index (the generators jump their counter-based streams there), so
 * the bits do not depend on the thread count or the schedule. Each chunk is computed into a thread's scratch array
 * and stored with the dtype's rounding ({@link DType#storeDouble}), by bulk copies for fp32 and bf16.
 *
 * <p>A target that only its owner thread may touch (a confined arena), or a strided view, is filled on the calling
 * thread alone.
 */
public final class ParallelFill {
    /** Elements per chunk: even (Box–Muller pairs never straddle two chunks) and large enough to amortise a task. */
    public static final int CHUNK = 1 << 16;
    /** A thread that is not the owner of any segment: a segment it may access is accessible to every thread. */
    private static final Thread STRANGER = new Thread(() -> { });
    private static final ValueLayout.OfFloat FLOAT_LE = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT_LE = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private ParallelFill() {
    }

    /** Computes the values of elements {@code [first, first + n)} into {@code out[0, n)}. */
    @FunctionalInterface
    public interface Doubles {
        void compute(long first, double[] out, int n);
    }

    /**
     * Fills {@code target} with {@code values} (flat C-order indices), chunk by chunk: in parallel when the target
     * is contiguous and any thread may write it, otherwise on the calling thread (same values either way).
     */
    public static void doubles(Tensor target, Doubles values) {
        long n = target.numel();
        int chunks = Math.toIntExact((n + CHUNK - 1) / CHUNK);
        boolean parallel = chunks > 1 && target.isContiguous() && target.buffer().isAccessibleBy(STRANGER);
        IntStream range = IntStream.range(0, chunks);
        (parallel ? range.parallel() : range).forEach(c -> {
            long first = (long) c * CHUNK;
            int len = (int) Math.min(CHUNK, n - first);
            Scratch s = SCRATCH.get();
            values.compute(first, s.values, len);
            if (target.isContiguous()) {
                store(target, first, s, len);
            } else {
                for (int i = 0; i < len; i++) {
                    target.setDouble(first + i, s.values[i]);
                }
            }
        });
    }

    /** Stores {@code s.values[0, len)} at flat element {@code first} of a contiguous target. */
    private static void store(Tensor t, long first, Scratch s, int len) {
        MemorySegment seg = t.buffer();
        DType dtype = t.dtype();
        long at = (t.offset() + first) * dtype.byteSize();
        double[] v = s.values;
        switch (dtype) {
            case FP32 -> {
                for (int i = 0; i < len; i++) {
                    s.floats[i] = (float) v[i];
                }
                MemorySegment.copy(s.floats, 0, seg, FLOAT_LE, at, len);
            }
            case BF16 -> {
                for (int i = 0; i < len; i++) {
                    s.shorts[i] = bf16(v[i]);
                }
                MemorySegment.copy(s.shorts, 0, seg, SHORT_LE, at, len);
            }
            case INT8 -> {
                for (int i = 0; i < len; i++) {
                    s.bytes[i] = int8(v[i]);
                }
                MemorySegment.copy(s.bytes, 0, seg, ValueLayout.JAVA_BYTE, at, len);
            }
            default -> {
                int size = dtype.byteSize();
                for (int i = 0; i < len; i++) {
                    dtype.storeDouble(seg, at + (long) i * size, v[i]);
                }
            }
        }
    }

    /**
     * {@link DType#doubleToBf16} without data-dependent branches (random data mispredicts them half the time):
     * round to odd into fp32 (truncate an inexact value toward zero, set the last bit), then to nearest even.
     */
    static short bf16(double v) {
        float f = (float) v;
        int bits = Float.floatToRawIntBits(f);
        bits -= Math.abs((double) f) > Math.abs(v) ? 1 : 0; // rounded away from zero: one ulp back (Inf → MAX)
        bits |= (double) f != v ? 1 : 0; // NaN too: its low bits vanish below, like the reference's
        if ((bits & 0x7FFFFFFF) > 0x7F800000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    /** {@link DType#storeDouble} for int8: round half to even, saturate to [−128, 127], NaN → 0. */
    static byte int8(double v) {
        double r = Math.rint(v);
        return (byte) (r != r ? 0 : Math.max(-128, Math.min(127, (int) r)));
    }

    /** One thread's chunk buffers. */
    private static final class Scratch {
        final double[] values = new double[CHUNK];
        final float[] floats = new float[CHUNK];
        final short[] shorts = new short[CHUNK];
        final byte[] bytes = new byte[CHUNK];
    }
}
