package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Exact widening of tile elements to fp32 (bf16: the bits shifted into the high half; fp16: the JDK's
 * conversion, an F16C intrinsic; integers: exact up to 2^24). bf16 and int8 are vectorized a vector at a time,
 * on heap arrays only: the raw elements are first copied out of the segment in bulk. Vector loads from a memory
 * segment compile to code that depends on which segment kinds the process has seen (see {@link MicroKernel});
 * array loads do not.
 */
public final class Widen {
    private static final VectorSpecies<Float> F = Species.F;
    private static final VectorSpecies<Short> S16 = Species.SHORTS_V;
    private static final VectorSpecies<Integer> I = Species.I;
    /** V bytes: the int8 values of one fp32 vector (null below 64 bits, where int8 widens one at a time). */
    private static final VectorSpecies<Byte> BYTES_V = Species.bytes(Species.V);
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private Widen() {
    }

    /** One vector of bf16 values from {@code raw[i ..]} as fp32 lanes. */
    static FloatVector bf16Lanes(short[] raw, int i) {
        IntVector wide = (IntVector) ShortVector.fromArray(S16, raw, i).convertShape(VectorOperators.S2I, I, 0);
        return wide.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
    }

    /** One vector of int8 values from {@code raw[i ..]} as fp32 lanes; needs {@link #vectorInt8()}. */
    static FloatVector int8Lanes(byte[] raw, int i) {
        return (FloatVector) ByteVector.fromArray(BYTES_V, raw, i).convertShape(VectorOperators.B2F, F, 0);
    }

    /** Whether int8 widens a vector at a time (vectors of at least 64 bits). */
    static boolean vectorInt8() {
        return BYTES_V != null;
    }

    /** {@code n} bf16 values at byte {@code off} of {@code s} as fp32 into {@code dst[dstOff ..]}. */
    public static void bf16ToFloats(MemorySegment s, long off, int n, float[] dst, int dstOff) {
        short[] raw = RawBuffers.shorts(n);
        MemorySegment.copy(s, SHORT, off, raw, 0, n);
        bf16ToFloats(raw, n, dst, dstOff);
    }

    /** {@code raw[0 .. n]} (bf16 bits) as fp32 into {@code dst[dstOff ..]}. */
    static void bf16ToFloats(short[] raw, int n, float[] dst, int dstOff) {
        int i = 0;
        for (int upper = F.loopBound(n); i < upper; i += F.length()) {
            bf16Lanes(raw, i).intoArray(dst, dstOff + i);
        }
        for (; i < n; i++) {
            dst[dstOff + i] = DType.bf16ToFloat(raw[i]);
        }
    }

    /** {@code n} int8 values at byte {@code off} of {@code s} as fp32 into {@code dst[dstOff ..]}. */
    public static void int8ToFloats(MemorySegment s, long off, int n, float[] dst, int dstOff) {
        byte[] raw = RawBuffers.bytes(n);
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, off, raw, 0, n);
        int8ToFloats(raw, n, dst, dstOff);
    }

    /** {@code raw[0 .. n]} (int8) as fp32 into {@code dst[dstOff ..]}. */
    static void int8ToFloats(byte[] raw, int n, float[] dst, int dstOff) {
        int i = 0;
        if (BYTES_V != null) {
            for (int upper = F.loopBound(n); i < upper; i += F.length()) {
                int8Lanes(raw, i).intoArray(dst, dstOff + i);
            }
        }
        for (; i < n; i++) {
            dst[dstOff + i] = raw[i];
        }
    }

    /**
     * Rows {@code row0 .. row0+count}, columns {@code col0 .. col0+cols} of a bf16 tile, raw, row-major (row
     * stride cols) in this thread's short buffer: one bulk copy per row.
     */
    static short[] rawShorts(Tile t, int row0, int count, int col0, int cols) {
        short[] raw = RawBuffers.shorts(count * cols);
        for (int r = 0; r < count; r++) {
            MemorySegment.copy(t.data(), SHORT, t.byteOffset(row0 + r, col0), raw, r * cols, cols);
        }
        return raw;
    }

    /** {@link #rawShorts} for an int8 tile, in this thread's byte buffer. */
    static byte[] rawBytes(Tile t, int row0, int count, int col0, int cols) {
        byte[] raw = RawBuffers.bytes(count * cols);
        for (int r = 0; r < count; r++) {
            MemorySegment.copy(t.data(), ValueLayout.JAVA_BYTE, t.byteOffset(row0 + r, col0), raw, r * cols, cols);
        }
        return raw;
    }

    /** Elements {@code (row, col0 .. col0+n)} of {@code t} as fp32 into {@code dst[dstOff ..]}. */
    public static void toFloats(Tile t, int row, int col0, int n, float[] dst, int dstOff) {
        MemorySegment s = t.data();
        long off = t.byteOffset(row, col0);
        switch (t.dtype()) {
            case FP32 -> MemorySegment.copy(s, FLOAT, off, dst, dstOff, n);
            case BF16 -> bf16ToFloats(s, off, n, dst, dstOff);
            case FP16 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOff + i] = Float.float16ToFloat(s.get(SHORT, off + 2L * i));
                }
            }
            case INT8 -> int8ToFloats(s, off, n, dst, dstOff);
            default -> {
                DType d = t.dtype();
                int size = d.byteSize();
                for (int i = 0; i < n; i++) {
                    dst[dstOff + i] = d.loadFloat(s, off + (long) size * i);
                }
            }
        }
    }
}
