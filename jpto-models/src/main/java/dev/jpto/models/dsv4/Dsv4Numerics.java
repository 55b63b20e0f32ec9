package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;

/** The rounding points of the spec (§3.13): bf16 RNE, int8 round-half-even quantisation, FP8 e4m3 simulation. */
public final class Dsv4Numerics {
    /** INT8_SCALE_MAX. */
    public static final double INT8_MAX = 127.0;
    /** INT8_AMAX_EPS: the amax floor of every symmetric int8 quantisation. */
    public static final double AMAX_EPS = 1e-4;
    /** FP32_NEG_INF: the finite "minus infinity" the kernels mask with. */
    public static final float NEG_INF = -3.4028234663852886e38f;

    private Dsv4Numerics() {
    }

    /** Rounds an fp32 value to bf16 (nearest, ties to even) and back. */
    public static float bf16(float x) {
        return DType.bf16ToFloat(DType.floatToBf16(x));
    }

    /** i8q: round half to even, clamp to ±127 (the inputs are already in range, so this is RNE). */
    public static int i8q(double x) {
        double r = Math.rint(x);
        return (int) Math.max(-INT8_MAX, Math.min(INT8_MAX, r));
    }

    /** Quantisation multiplier {@code sq = 127 / max(amax, 1e-4)} as fp32 (its inverse is the stored scale). */
    public static float quantMultiplier(double amax) {
        return (float) (INT8_MAX / Math.max(amax, AMAX_EPS));
    }

    /** Rounds to FP8 e4m3fn (3 mantissa bits, bias 7, subnormals down to 2^-9, max 448), ties to even. */
    public static double fp8e4m3(double x) {
        if (x == 0 || Double.isNaN(x)) {
            return x;
        }
        double a = Math.abs(x);
        int e = Math.max(Math.getExponent(a), -6);
        double quantum = Math.scalb(1.0, e - 3);
        double r = Math.min(448.0, Math.rint(a / quantum) * quantum);
        return Math.copySign(r, x);
    }

    /** 2^ceil(log2(y)) exactly, for a positive normal double y (a grid scale; log/pow could miss at powers of 2). */
    public static double ceilPow2(double y) {
        int e = Math.getExponent(y);
        double p = Math.scalb(1.0, e);
        return p == y ? p : 2 * p;
    }
}
