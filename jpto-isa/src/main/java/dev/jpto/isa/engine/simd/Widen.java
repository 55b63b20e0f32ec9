package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Exact widening of tile elements to fp32 (bf16: the bits shifted into the high half; fp16: the JDK's
 * conversion, an F16C intrinsic; integers: exact up to 2^24). bf16 and int8 are vectorized a vector at a time.
 */
public final class Widen {
    private static final VectorSpecies<Float> F = Species.F;
    private static final VectorSpecies<Short> S16 = Species.SHORTS_V;
    private static final VectorSpecies<Integer> I = Species.I;
    /** V bytes: the int8 values of one fp32 vector (null below 64 bits, where int8 widens one at a time). */
    private static final VectorSpecies<Byte> BYTES_V = Species.bytes(Species.V);
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private Widen() {
    }

    /** One vector of bf16 values at {@code off} as fp32 lanes. */
    public static FloatVector bf16Lanes(MemorySegment s, long off) {
        ShortVector raw = ShortVector.fromMemorySegment(S16, s, off, NATIVE);
        IntVector wide = (IntVector) raw.convertShape(VectorOperators.S2I, I, 0);
        return wide.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
    }

    /** Elements {@code (row, col0 .. col0+n)} of {@code t} as fp32 into {@code dst[dstOff ..]}. */
    public static void toFloats(Tile t, int row, int col0, int n, float[] dst, int dstOff) {
        MemorySegment s = t.data();
        long off = t.byteOffset(row, col0);
        switch (t.dtype()) {
            case FP32 -> MemorySegment.copy(s, FLOAT, off, dst, dstOff, n);
            case BF16 -> {
                int i = 0;
                for (int upper = F.loopBound(n); i < upper; i += F.length()) {
                    bf16Lanes(s, off + 2L * i).intoArray(dst, dstOff + i);
                }
                for (; i < n; i++) {
                    dst[dstOff + i] = DType.bf16ToFloat(s.get(SHORT, off + 2L * i));
                }
            }
            case FP16 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOff + i] = Float.float16ToFloat(s.get(SHORT, off + 2L * i));
                }
            }
            case INT8 -> {
                int i = 0;
                if (BYTES_V != null) {
                    for (int upper = F.loopBound(n); i < upper; i += F.length()) {
                        ((FloatVector) ByteVector.fromMemorySegment(BYTES_V, s, off + i, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0)).intoArray(dst, dstOff + i);
                    }
                }
                for (; i < n; i++) {
                    dst[dstOff + i] = s.get(ValueLayout.JAVA_BYTE, off + i);
                }
            }
            default -> {
                DType d = t.dtype();
                int size = d.byteSize();
                for (int i = 0; i < n; i++) {
                    dst[dstOff + i] = d.loadFloat(s, off + (long) size * i);
                }
            }
        }
    }

    /** Like {@link #toFloats(Tile, int, int, int, float[], int)} into a segment at byte offset {@code dstOff}. */
    public static void toFloats(Tile t, int row, int col0, int n, MemorySegment dst, long dstOff) {
        MemorySegment s = t.data();
        long off = t.byteOffset(row, col0);
        switch (t.dtype()) {
            case FP32 -> MemorySegment.copy(s, off, dst, dstOff, 4L * n);
            case BF16 -> {
                int i = 0;
                for (int upper = F.loopBound(n); i < upper; i += F.length()) {
                    bf16Lanes(s, off + 2L * i).intoMemorySegment(dst, dstOff + 4L * i, NATIVE);
                }
                for (; i < n; i++) {
                    dst.set(FLOAT, dstOff + 4L * i, DType.bf16ToFloat(s.get(SHORT, off + 2L * i)));
                }
            }
            case FP16 -> {
                for (int i = 0; i < n; i++) {
                    dst.set(FLOAT, dstOff + 4L * i, Float.float16ToFloat(s.get(SHORT, off + 2L * i)));
                }
            }
            default -> {
                DType d = t.dtype();
                int size = d.byteSize();
                for (int i = 0; i < n; i++) {
                    dst.set(FLOAT, dstOff + 4L * i, d.loadFloat(s, off + (long) size * i));
                }
            }
        }
    }

    static VectorSpecies<Float> floatSpecies() {
        return F;
    }
}
