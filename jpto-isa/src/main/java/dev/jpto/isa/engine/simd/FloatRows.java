package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Moves one row of a float tile (fp32, bf16, fp16) to and from an fp32 array: the vector kernels compute on
 * fp32 lanes and the tile's dtype is applied only here, rounding to nearest even exactly like
 * {@link DType#storeFloat}. fp32 rows are bulk copies; bf16 is widened and narrowed a vector at a time; fp16
 * uses the JDK's conversions (F16C intrinsics).
 */
public final class FloatRows {
    private static final VectorSpecies<Float> F = Species.F;
    private static final VectorSpecies<Short> S16 = Species.SHORTS_V;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private FloatRows() {
    }

    /** Columns {@code 0 .. n} of row {@code r} as fp32 into {@code dst[0 .. n]}. */
    public static void read(Tile t, int r, int n, float[] dst) {
        Widen.toFloats(t, r, 0, n, dst, 0);
    }

    /** Writes {@code src[0 .. n]} into columns {@code 0 .. n} of row {@code r}, rounded to the tile's dtype. */
    public static void write(Tile t, int r, int n, float[] src) {
        MemorySegment s = t.data();
        long off = t.byteOffset(r, 0);
        switch (t.dtype()) {
            case FP32 -> MemorySegment.copy(src, 0, s, FLOAT, off, n);
            case BF16 -> {
                int i = 0;
                for (int upper = F.loopBound(n); i < upper; i += F.length()) {
                    toBf16(FloatVector.fromArray(F, src, i)).intoMemorySegment(s, off + 2L * i, NATIVE);
                }
                for (; i < n; i++) {
                    s.set(SHORT, off + 2L * i, DType.floatToBf16(src[i]));
                }
            }
            case FP16 -> {
                for (int i = 0; i < n; i++) {
                    s.set(SHORT, off + 2L * i, Float.floatToFloat16(src[i]));
                }
            }
            default -> throw new IllegalArgumentException("not a float tile: " + t.describe());
        }
    }

    /** fp32 → bf16 bits, round to nearest even; NaN stays a quiet NaN (as {@link DType#floatToBf16}). */
    static ShortVector toBf16(FloatVector v) {
        IntVector bits = v.reinterpretAsInts();
        VectorMask<Integer> nan = bits.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000);
        IntVector lsb = bits.lanewise(VectorOperators.LSHR, 16).and(1);
        IntVector rounded = bits.add(0x7FFF).add(lsb).lanewise(VectorOperators.LSHR, 16);
        IntVector quiet = bits.lanewise(VectorOperators.LSHR, 16).or(0x0040);
        return (ShortVector) rounded.blend(quiet, nan).convertShape(VectorOperators.I2S, S16, 0);
    }
}
