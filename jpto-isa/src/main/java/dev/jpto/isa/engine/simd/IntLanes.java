package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.Elementwise;
import dev.jpto.isa.op.Fn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Integer element kernels for tiles of at most 32 bits (int8, uint8, int16, int32) on int32 lanes. The
 * scalar rule computes in 64 bits and wraps to the tile's width; ADD, SUB, MUL, NEG, ABS and sums only need
 * the low bits, which 32-bit wrapping arithmetic keeps, and MAX, MIN, RELU are exact on widened values, so
 * the results are bit-identical. DIV runs the shared scalar rule (x86 has no vector integer divide).
 */
public final class IntLanes {
    private static final VectorSpecies<Integer> I = Species.I;
    private static final int V = Species.V;

    private IntLanes() {
    }

    /** Whether a dtype's values fit int32 lanes. */
    public static boolean fits(DType t) {
        return t == DType.INT8 || t == DType.UINT8 || t == DType.INT16 || t == DType.INT32;
    }

    /** Row {@code r}, columns {@code 0 .. n}, widened exactly (uint8 zero-extended). */
    public static void read(Tile t, int r, int n, int[] dst) {
        MemorySegment s = t.data();
        long off = t.byteOffset(r, 0);
        switch (t.dtype()) {
            case INT32 -> MemorySegment.copy(s, ValueLayout.JAVA_INT_UNALIGNED, off, dst, 0, n);
            case INT16 -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = s.get(ValueLayout.JAVA_SHORT_UNALIGNED, off + 2L * i);
                }
            }
            case INT8 -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = s.get(ValueLayout.JAVA_BYTE, off + i);
                }
            }
            case UINT8 -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = s.get(ValueLayout.JAVA_BYTE, off + i) & 0xFF;
                }
            }
            default -> throw new IllegalArgumentException("not a <= 32-bit integer tile: " + t.describe());
        }
    }

    /** Writes {@code src[0 .. n]} wrapped to the tile's width (two's complement; uint8 modulo 256). */
    public static void write(Tile t, int r, int n, int[] src) {
        MemorySegment s = t.data();
        long off = t.byteOffset(r, 0);
        switch (t.dtype()) {
            case INT32 -> MemorySegment.copy(src, 0, s, ValueLayout.JAVA_INT_UNALIGNED, off, n);
            case INT16 -> {
                for (int i = 0; i < n; i++) {
                    s.set(ValueLayout.JAVA_SHORT_UNALIGNED, off + 2L * i, (short) src[i]);
                }
            }
            case INT8, UINT8 -> {
                for (int i = 0; i < n; i++) {
                    s.set(ValueLayout.JAVA_BYTE, off + i, (byte) src[i]);
                }
            }
            default -> throw new IllegalArgumentException("not a <= 32-bit integer tile: " + t.describe());
        }
    }

    /** {@code d[i] = a[i] fn b[i]} (wrapping). */
    public static void binary(Fn.Binary fn, int[] a, int[] b, int[] d, int n) {
        int i = 0;
        int upper = I.loopBound(n);
        switch (fn) {
            case ADD -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).add(IntVector.fromArray(I, b, i)).intoArray(d, i);
                }
            }
            case SUB -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).sub(IntVector.fromArray(I, b, i)).intoArray(d, i);
                }
            }
            case MUL -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).mul(IntVector.fromArray(I, b, i)).intoArray(d, i);
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).max(IntVector.fromArray(I, b, i)).intoArray(d, i);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).min(IntVector.fromArray(I, b, i)).intoArray(d, i);
                }
            }
            case DIV -> {
                // scalar rule below
            }
        }
        for (; i < n; i++) {
            d[i] = (int) Elementwise.apply(fn, a[i], b[i]);
        }
    }

    /**
     * {@code d[i] = a[i] fn s}. The caller passes {@code s} already wrapped to 32 bits, which is exact for
     * ADD/SUB/MUL; for MAX/MIN/DIV it must pass only scalars inside the tile's range.
     */
    public static void binaryScalar(Fn.Binary fn, int[] a, int s, int[] d, int n) {
        int i = 0;
        int upper = I.loopBound(n);
        switch (fn) {
            case ADD -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).add(s).intoArray(d, i);
                }
            }
            case SUB -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).sub(s).intoArray(d, i);
                }
            }
            case MUL -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).mul(s).intoArray(d, i);
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).max(s).intoArray(d, i);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, a, i).min(s).intoArray(d, i);
                }
            }
            case DIV -> {
                // scalar rule below
            }
        }
        for (; i < n; i++) {
            d[i] = (int) Elementwise.apply(fn, a[i], s);
        }
    }

    /** NEG, ABS, RELU (the integer unary functions). */
    public static void unary(Fn.Unary fn, int[] x, int[] d, int n) {
        int i = 0;
        int upper = I.loopBound(n);
        switch (fn) {
            case NEG -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, x, i).neg().intoArray(d, i);
                }
            }
            case ABS -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, x, i).abs().intoArray(d, i);
                }
            }
            case RELU -> {
                for (; i < upper; i += V) {
                    IntVector.fromArray(I, x, i).max(0).intoArray(d, i);
                }
            }
            default -> throw new IllegalArgumentException(fn + " is not defined on integer tiles");
        }
        for (; i < n; i++) {
            d[i] = (int) Elementwise.apply(fn, x[i]);
        }
    }

    /** Wrapping sum, or max/min, of {@code x[0 .. n]} (exact in the low 32 bits). */
    public static int reduce(Fn.Reduce fn, int[] x, int n, int identity) {
        int i = 0;
        int upper = I.loopBound(n);
        IntVector s = IntVector.broadcast(I, identity);
        int acc;
        switch (fn) {
            case SUM -> {
                for (; i < upper; i += V) {
                    s = s.add(IntVector.fromArray(I, x, i));
                }
                acc = s.reduceLanes(VectorOperators.ADD);
                for (; i < n; i++) {
                    acc += x[i];
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    s = s.max(IntVector.fromArray(I, x, i));
                }
                acc = s.reduceLanes(VectorOperators.MAX);
                for (; i < n; i++) {
                    acc = Math.max(acc, x[i]);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    s = s.min(IntVector.fromArray(I, x, i));
                }
                acc = s.reduceLanes(VectorOperators.MIN);
                for (; i < n; i++) {
                    acc = Math.min(acc, x[i]);
                }
            }
            default -> throw new AssertionError(fn);
        }
        return acc;
    }

    /** {@code acc[i] = acc[i] fn x[i]}: one more row of a column reduction. */
    public static void accumulate(Fn.Reduce fn, int[] acc, int[] x, int n) {
        binary(switch (fn) {
            case SUM -> Fn.Binary.ADD;
            case MAX -> Fn.Binary.MAX;
            case MIN -> Fn.Binary.MIN;
        }, acc, x, acc, n);
    }
}
