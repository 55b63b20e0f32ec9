package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Dtype conversions a vector at a time between memory (a tensor's row, any offset) and the fp32/int32 row buffers,
 * bit for bit what the per-element rules of {@link DType} and {@link dev.jpto.isa.op.Elementwise#convert} give:
 * float widening is exact, narrowing to bf16 rounds to nearest even with NaN kept quiet (as
 * {@link DType#floatToBf16}), fp16 uses the JDK's conversions, int32 → fp32 rounds to nearest even like
 * {@code (float) long}, and integer narrowing saturates to the target's range.
 */
public final class Conversions {
    private static final VectorSpecies<Float> F = Species.F;
    private static final VectorSpecies<Integer> I = Species.I;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private Conversions() {
    }

    /** Whether {@link #readFloats} and {@link #writeFloats} take this dtype. */
    public static boolean isFloat(DType t) {
        return t == DType.FP32 || t == DType.BF16 || t == DType.FP16;
    }

    /** {@code n} elements of float dtype {@code from} at byte offset {@code off} of {@code s} as fp32 (exact). */
    public static void readFloats(DType from, MemorySegment s, long off, int n, float[] dst) {
        switch (from) {
            case FP32 -> MemorySegment.copy(s, FLOAT, off, dst, 0, n);
            case BF16 -> Widen.bf16ToFloats(s, off, n, dst, 0);
            case FP16 -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = Float.float16ToFloat(s.get(SHORT, off + 2L * i));
                }
            }
            default -> throw new IllegalArgumentException("not a float dtype: " + from + " (fp32, bf16, fp16)");
        }
    }

    /** Writes {@code src[0 .. n]} at byte offset {@code off} of {@code s}, rounded to float dtype {@code to}. */
    public static void writeFloats(DType to, float[] src, int n, MemorySegment s, long off) {
        switch (to) {
            case FP32 -> MemorySegment.copy(src, 0, s, FLOAT, off, n);
            case BF16 -> FloatRows.toBf16(src, n, s, off);
            case FP16 -> {
                for (int i = 0; i < n; i++) {
                    s.set(SHORT, off + 2L * i, Float.floatToFloat16(src[i]));
                }
            }
            default -> throw new IllegalArgumentException("not a float dtype: " + to + " (fp32, bf16, fp16)");
        }
    }

    /** {@code dst[i] = (float) src[i]}, rounded to nearest even (as {@code (float) (long) src[i]}). */
    public static void intsToFloats(int[] src, float[] dst, int n) {
        int i = 0;
        for (int upper = I.loopBound(n); i < upper; i += I.length()) {
            ((FloatVector) IntVector.fromArray(I, src, i).convert(VectorOperators.I2F, 0)).intoArray(dst, i);
        }
        for (; i < n; i++) {
            dst[i] = (float) src[i];
        }
    }

    /** {@code dst[i] = min(max(src[i], min), max)}: integer narrowing that saturates. */
    public static void clamp(int[] src, int min, int max, int[] dst, int n) {
        int i = 0;
        for (int upper = I.loopBound(n); i < upper; i += I.length()) {
            IntVector.fromArray(I, src, i).max(min).min(max).intoArray(dst, i);
        }
        for (; i < n; i++) {
            dst[i] = Math.min(Math.max(src[i], min), max);
        }
    }
}
