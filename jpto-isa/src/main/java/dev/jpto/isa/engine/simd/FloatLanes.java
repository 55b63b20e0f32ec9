package dev.jpto.isa.engine.simd;

import dev.jpto.isa.op.Elementwise;
import dev.jpto.isa.op.Fn;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * fp32 element kernels over arrays, a vector at a time with a scalar tail that applies the shared
 * {@link Elementwise} rule. Every lane function is the IEEE operation the scalar rule uses, so results are
 * identical, except where noted on {@link #unary}: transcendentals use the Vector API's vectorized math
 * (within 1 ulp in double), evaluated in double lanes and rounded to fp32 once like the scalar rule.
 *
 * <p>Each case has its own loop on purpose: C2 only intrinsifies a lanewise call whose operator is a
 * constant at the call site.
 */
public final class FloatLanes {
    private static final VectorSpecies<Float> F = Species.F;
    private static final VectorSpecies<Float> F8 = Species.F_HALF;
    private static final VectorSpecies<Double> D = Species.D;
    private static final int V = Species.V;
    private static final int H = Species.V / 2;
    /**
     * For {@link #sumLanes}: lane i takes lane i + 8, 4, 2 (mod V), null where the vector is not wider. A rotation on
     * the full register (one permute) instead of adding the two halves as narrower vectors (two shape changes).
     */
    private static final VectorShuffle<Float> ROTATE_8 = rotation(8);
    private static final VectorShuffle<Float> ROTATE_4 = rotation(4);
    private static final VectorShuffle<Float> ROTATE_2 = rotation(2);

    private FloatLanes() {
    }

    /** {@code d[i] = a[i] fn b[i]}. */
    public static void binary(Fn.Binary fn, float[] a, float[] b, float[] d, int n) {
        int i = 0;
        int upper = F.loopBound(n);
        switch (fn) {
            case ADD -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).add(FloatVector.fromArray(F, b, i)).intoArray(d, i);
                }
            }
            case SUB -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).sub(FloatVector.fromArray(F, b, i)).intoArray(d, i);
                }
            }
            case MUL -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).mul(FloatVector.fromArray(F, b, i)).intoArray(d, i);
                }
            }
            case DIV -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).div(FloatVector.fromArray(F, b, i)).intoArray(d, i);
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).max(FloatVector.fromArray(F, b, i)).intoArray(d, i);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).min(FloatVector.fromArray(F, b, i)).intoArray(d, i);
                }
            }
        }
        for (; i < n; i++) {
            d[i] = Elementwise.apply(fn, a[i], b[i]);
        }
    }

    /** {@code d[i] = a[i] fn s}. */
    public static void binaryScalar(Fn.Binary fn, float[] a, float s, float[] d, int n) {
        int i = 0;
        int upper = F.loopBound(n);
        FloatVector b = FloatVector.broadcast(F, s);
        switch (fn) {
            case ADD -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).add(b).intoArray(d, i);
                }
            }
            case SUB -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).sub(b).intoArray(d, i);
                }
            }
            case MUL -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).mul(b).intoArray(d, i);
                }
            }
            case DIV -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).div(b).intoArray(d, i);
                }
            }
            case MAX -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).max(b).intoArray(d, i);
                }
            }
            case MIN -> {
                for (; i < upper; i += V) {
                    FloatVector.fromArray(F, a, i).min(b).intoArray(d, i);
                }
            }
        }
        for (; i < n; i++) {
            d[i] = Elementwise.apply(fn, a[i], s);
        }
    }

    /**
     * {@code d[i] = fn(x[i])}. NEG, ABS, RELU, SQRT, RSQRT, RECIPROCAL are exact (the same IEEE operations as
     * the scalar rule; RSQRT in double). EXP, LOG, TANH, SIGMOID, SILU, GELU differ from the scalar rule by at
     * most 1 ulp of fp32 (the vector math library is within 1 ulp in double; one rounding to fp32 then flips
     * at most one step).
     */
    public static void unary(Fn.Unary fn, float[] x, float[] d, int n) {
        int i = 0;
        switch (fn) {
            case NEG -> {
                for (int upper = F.loopBound(n); i < upper; i += V) {
                    FloatVector.fromArray(F, x, i).neg().intoArray(d, i);
                }
            }
            case ABS -> {
                for (int upper = F.loopBound(n); i < upper; i += V) {
                    FloatVector.fromArray(F, x, i).abs().intoArray(d, i);
                }
            }
            case RELU -> {
                FloatVector zero = FloatVector.zero(F);
                for (int upper = F.loopBound(n); i < upper; i += V) {
                    FloatVector.fromArray(F, x, i).max(zero).intoArray(d, i);
                }
            }
            case RECIPROCAL -> {
                FloatVector one = FloatVector.broadcast(F, 1.0f);
                for (int upper = F.loopBound(n); i < upper; i += V) {
                    one.div(FloatVector.fromArray(F, x, i)).intoArray(d, i);
                }
            }
            case SQRT -> {
                for (int upper = F.loopBound(n); i < upper; i += V) {
                    FloatVector.fromArray(F, x, i).sqrt().intoArray(d, i);
                }
            }
            case RSQRT -> {
                DoubleVector one = DoubleVector.broadcast(D, 1.0);
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    narrow(one.div(wide(x, i).sqrt()), d, i);
                }
            }
            case EXP -> {
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    narrow(wide(x, i).lanewise(VectorOperators.EXP), d, i);
                }
            }
            case LOG -> {
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    narrow(wide(x, i).lanewise(VectorOperators.LOG), d, i);
                }
            }
            case TANH -> {
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    narrow(wide(x, i).lanewise(VectorOperators.TANH), d, i);
                }
            }
            case SIGMOID -> {
                DoubleVector one = DoubleVector.broadcast(D, 1.0);
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    DoubleVector v = wide(x, i);
                    narrow(one.div(one.add(v.neg().lanewise(VectorOperators.EXP))), d, i);
                }
            }
            case SILU -> {
                DoubleVector one = DoubleVector.broadcast(D, 1.0);
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    DoubleVector v = wide(x, i);
                    narrow(v.div(one.add(v.neg().lanewise(VectorOperators.EXP))), d, i);
                }
            }
            case GELU -> {
                // x / (1 + e^(−2·√(2/π)·(x + 0.044715·x·x·x))), in the scalar rule's evaluation order
                double c = Math.sqrt(2.0 / Math.PI);
                DoubleVector one = DoubleVector.broadcast(D, 1.0);
                for (int upper = F8.loopBound(n); i < upper; i += H) {
                    DoubleVector v = wide(x, i);
                    DoubleVector cube = v.mul(0.044715).mul(v).mul(v);
                    DoubleVector e = v.add(cube).mul(c).mul(-2.0).lanewise(VectorOperators.EXP);
                    narrow(v.div(one.add(e)), d, i);
                }
            }
        }
        for (; i < n; i++) {
            d[i] = Elementwise.apply(fn, x[i]);
        }
    }

    /**
     * Sum, max or min of {@code x[0 .. n]}; max/min are exact. Sums are reassociated, in a fixed order: V partial sums
     * (lane j adds {@code x[j], x[j + V], …} in turn), combined by {@link #sumLanes}, then the tail in turn.
     */
    public static float reduce(Fn.Reduce fn, float[] x, int n) {
        int i = 0;
        int upper = F.loopBound(n);
        float acc;
        switch (fn) {
            case SUM -> {
                FloatVector s = FloatVector.zero(F);
                for (; i < upper; i += V) {
                    s = s.add(FloatVector.fromArray(F, x, i));
                }
                acc = sumLanes(s);
                for (; i < n; i++) {
                    acc += x[i];
                }
            }
            case MAX -> {
                FloatVector s = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
                for (; i < upper; i += V) {
                    s = s.max(FloatVector.fromArray(F, x, i));
                }
                acc = s.reduceLanes(VectorOperators.MAX);
                for (; i < n; i++) {
                    acc = Math.max(acc, x[i]);
                }
            }
            case MIN -> {
                FloatVector s = FloatVector.broadcast(F, Float.POSITIVE_INFINITY);
                for (; i < upper; i += V) {
                    s = s.min(FloatVector.fromArray(F, x, i));
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

    /**
     * The sum of {@code s}'s lanes, pairing lanes {@code V/2} apart, then {@code V/4}, … down to 1 (for 8 lanes:
     * ((s0+s4)+(s2+s6)) + ((s1+s5)+(s3+s7))). Not {@code reduceLanes(ADD)}: it leaves the order to the implementation,
     * and its interpreted and C2-compiled forms differ, so a result would depend on how far the JIT had warmed up
     * when the kernel ran: the same program gave different bits from run to run.
     */
    static float sumLanes(FloatVector s) {
        if (V > 16) { // wider than 512 bits (SVE only)
            return foldInPairs(s.toArray());
        }
        // lane i of each step is lane i + lane i + d, the same operands in the same order as the pairing above
        FloatVector v = s;
        if (V == 16) {
            v = v.add(v.rearrange(ROTATE_8));
        }
        if (V >= 8) {
            v = v.add(v.rearrange(ROTATE_4));
        }
        if (V >= 4) {
            v = v.add(v.rearrange(ROTATE_2));
        }
        return V >= 2 ? v.lane(0) + v.lane(1) : v.lane(0);
    }

    /** {@link #sumLanes}'s order one lane at a time, over a power-of-two number of lanes (overwrites them). */
    static float foldInPairs(float[] lanes) {
        for (int distance = lanes.length / 2; distance >= 1; distance /= 2) {
            for (int j = 0; j < distance; j++) {
                lanes[j] += lanes[j + distance];
            }
        }
        return lanes[0];
    }

    /** The shuffle moving lane i + d to lane i (mod V), or null when {@code 2d} lanes are more than V. */
    private static VectorShuffle<Float> rotation(int d) {
        return 2 * d <= V ? VectorShuffle.fromOp(F, i -> (i + d) % V) : null;
    }

    /** {@code acc[i] = acc[i] fn x[i]}: one more row of a column reduction, in row order (exact). */
    public static void accumulate(Fn.Reduce fn, float[] acc, float[] x, int n) {
        binary(switch (fn) {
            case SUM -> Fn.Binary.ADD;
            case MAX -> Fn.Binary.MAX;
            case MIN -> Fn.Binary.MIN;
        }, acc, x, acc, n);
    }

    private static DoubleVector wide(float[] x, int i) {
        return (DoubleVector) FloatVector.fromArray(F8, x, i).convertShape(VectorOperators.F2D, D, 0);
    }

    private static void narrow(DoubleVector v, float[] d, int i) {
        v.convertShape(VectorOperators.D2F, F8, 0).reinterpretAsFloats().intoArray(d, i);
    }
}
