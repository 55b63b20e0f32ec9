package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private FloatRows() {
    }

    /** Columns {@code 0 .. n} of row {@code r} as fp32 into {@code dst[0 .. n]}. */
    public static void read(Tile t, int r, int n, float[] dst) {
        Widen.toFloats(t, r, 0, n, dst, 0);
    }

    /** Writes {@code src[0 .. n]} into columns {@code 0 .. n} of row {@code r}, rounded to the tile's dtype. */
    public static void write(Tile t, int r, int n, float[] src) {
        if (!Conversions.isFloat(t.dtype())) {
            throw new IllegalArgumentException("not a float tile: " + t.describe());
        }
        Conversions.writeFloats(t.dtype(), src, n, t.data(), t.byteOffset(r, 0));
    }

    /**
     * {@code src[0 .. n]} rounded to bf16 at byte {@code off} of {@code s}: narrowed a vector at a time into this
     * thread's raw buffer, then copied in bulk (array-only vector code, see {@link Widen}).
     */
    static void toBf16(float[] src, int n, MemorySegment s, long off) {
        short[] raw = RawBuffers.shorts(n);
        int i = 0;
        for (int upper = F.loopBound(n); i < upper; i += F.length()) {
            toBf16(FloatVector.fromArray(F, src, i)).intoArray(raw, i);
        }
        for (; i < n; i++) {
            raw[i] = DType.floatToBf16(src[i]);
        }
        MemorySegment.copy(raw, 0, s, SHORT, off, n);
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
