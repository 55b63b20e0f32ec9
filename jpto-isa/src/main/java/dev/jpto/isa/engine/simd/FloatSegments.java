package dev.jpto.isa.engine.simd;

import dev.jpto.isa.op.Elementwise;
import dev.jpto.isa.op.Fn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * fp32 element kernels straight on tile memory: vector loads from the operands' segments and vector stores
 * into the destination, with no row copies through heap arrays (about twice the throughput of the
 * {@link FloatRows} + {@link FloatLanes} path for these memory-bound ops). The lane operations are those of
 * {@link FloatLanes} and the tails apply the shared {@link Elementwise} rule, so results are identical to it.
 * Operands may be the same tile as the destination (each vector is read before it is written).
 *
 * <p>Each case has its own loop: C2 only intrinsifies a lanewise call whose operator is a constant.
 */
public final class FloatSegments {
    private static final VectorSpecies<Float> F = Species.F;
    private static final int V = Species.V;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private FloatSegments() {
    }

    /** {@code d[i] = a[i] fn b[i]} for n fp32 elements at the given byte offsets. */
    public static void binary(Fn.Binary fn, MemorySegment a, long aOff, MemorySegment b, long bOff, MemorySegment d,
                              long dOff, int n) {
        int i = 0;
        int upper = F.loopBound(n);
        switch (fn) {
            case ADD -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).add(load(b, bOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case SUB -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).sub(load(b, bOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case MUL -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).mul(load(b, bOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case DIV -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).div(load(b, bOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).max(load(b, bOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).min(load(b, bOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
        }
        for (; i < n; i++) {
            d.set(FLOAT, dOff + 4L * i, Elementwise.apply(fn, a.get(FLOAT, aOff + 4L * i), b.get(FLOAT, bOff + 4L * i)));
        }
    }

    /** {@code d[i] = a[i] fn s} for n fp32 elements at the given byte offsets. */
    public static void binaryScalar(Fn.Binary fn, MemorySegment a, long aOff, float s, MemorySegment d, long dOff,
                                    int n) {
        int i = 0;
        int upper = F.loopBound(n);
        FloatVector sv = FloatVector.broadcast(F, s);
        switch (fn) {
            case ADD -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).add(sv).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case SUB -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).sub(sv).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case MUL -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).mul(sv).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case DIV -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).div(sv).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).max(sv).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    load(a, aOff + 4L * i).min(sv).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
        }
        for (; i < n; i++) {
            d.set(FLOAT, dOff + 4L * i, Elementwise.apply(fn, a.get(FLOAT, aOff + 4L * i), s));
        }
    }

    /** Whether {@link #unary} computes fn here: the ops that are one exact fp32 lane operation. */
    public static boolean hasUnary(Fn.Unary fn) {
        return switch (fn) {
            case NEG, ABS, RELU, RECIPROCAL, SQRT -> true;
            default -> false;
        };
    }

    /** {@code d[i] = fn(x[i])} for n fp32 elements, for the ops of {@link #hasUnary}. */
    public static void unary(Fn.Unary fn, MemorySegment x, long xOff, MemorySegment d, long dOff, int n) {
        int i = 0;
        int upper = F.loopBound(n);
        switch (fn) {
            case NEG -> {
                for (; i < upper; i += V) {
                    load(x, xOff + 4L * i).neg().intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case ABS -> {
                for (; i < upper; i += V) {
                    load(x, xOff + 4L * i).abs().intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case RELU -> {
                FloatVector zero = FloatVector.zero(F);
                for (; i < upper; i += V) {
                    load(x, xOff + 4L * i).max(zero).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case RECIPROCAL -> {
                FloatVector one = FloatVector.broadcast(F, 1.0f);
                for (; i < upper; i += V) {
                    one.div(load(x, xOff + 4L * i)).intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            case SQRT -> {
                for (; i < upper; i += V) {
                    load(x, xOff + 4L * i).sqrt().intoMemorySegment(d, dOff + 4L * i, NATIVE);
                }
            }
            default -> throw new IllegalArgumentException("unary " + fn + " is not an fp32 lane operation here");
        }
        for (; i < n; i++) {
            d.set(FLOAT, dOff + 4L * i, Elementwise.apply(fn, x.get(FLOAT, xOff + 4L * i)));
        }
    }

    private static FloatVector load(MemorySegment s, long off) {
        return FloatVector.fromMemorySegment(F, s, off, NATIVE);
    }
}
