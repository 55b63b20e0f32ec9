package dev.jpto.isa.op;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import java.lang.foreign.MemorySegment;

/**
 * The per-element semantics of the tile ops, one function per rule, shared by every engine (a vector
 * engine uses them for its tails and as its definition). Float tiles compute in fp32; transcendentals are
 * evaluated in double and rounded to fp32 once. Integer tiles compute in 64 bits and wrap to the tile's
 * width ({@link #wrap}).
 */
public final class Elementwise {
    private Elementwise() {
    }

    /** fp32 binary function. MAX/MIN follow {@link Math#max(float, float)}: NaN wins, -0.0 &lt; +0.0. */
    public static float apply(Fn.Binary fn, float a, float b) {
        return switch (fn) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> a / b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
        };
    }

    /** Integer binary function before wrapping: DIV truncates toward zero and {@code x / 0 = 0}. */
    public static long apply(Fn.Binary fn, long a, long b) {
        return switch (fn) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> b == 0 ? 0 : a / b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
        };
    }

    /** fp32 unary function; transcendentals go through double and round to fp32 once. */
    public static float apply(Fn.Unary fn, float x) {
        double d = x;
        return switch (fn) {
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case EXP -> (float) Math.exp(d);
            case LOG -> (float) Math.log(d);
            case SQRT -> (float) Math.sqrt(d);
            case RSQRT -> (float) (1.0 / Math.sqrt(d));
            case RECIPROCAL -> 1.0f / x;
            case RELU -> Math.max(x, 0.0f);
            case SILU -> (float) (d / (1.0 + Math.exp(-d)));
            case SIGMOID -> (float) (1.0 / (1.0 + Math.exp(-d)));
            case TANH -> (float) Math.tanh(d);
            case GELU -> (float) gelu(d);
        };
    }

    /**
     * GELU, tanh form: 0.5·x·(1 + tanh(u)) with u = √(2/π)·(x + 0.044715·x³), evaluated as the equal x / (1 + e^(−2u)).
     * Written with tanh, 1 + tanh(u) cancels for negative x: at x = −7 the result is 0.7 % off, from x ≈ −7.2 on it
     * is −0 (GELU(−9) ≈ −1.3e−28), and a 1-ulp difference in tanh moved GELU(−5.66) by 3 284 fp32 ulps, so the
     * vector and the interpreted paths disagreed. The exponential form has no cancellation.
     */
    public static double gelu(double x) {
        double inner = Math.sqrt(2.0 / Math.PI) * (x + 0.044715 * x * x * x);
        return x / (1.0 + Math.exp(-2.0 * inner));
    }

    /** Integer unary function before wrapping (only NEG, ABS, RELU are defined on integers). */
    public static long apply(Fn.Unary fn, long x) {
        return switch (fn) {
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case RELU -> Math.max(x, 0);
            default -> throw new IllegalArgumentException(fn.name().toLowerCase(java.util.Locale.ROOT) + " is not defined on integer tiles");
        };
    }

    /** IEEE comparison: every comparison with NaN is false except NE, which is true. */
    public static boolean test(Fn.Compare fn, float a, float b) {
        return switch (fn) {
            case EQ -> a == b;
            case NE -> a != b;
            case LT -> a < b;
            case LE -> a <= b;
            case GT -> a > b;
            case GE -> a >= b;
        };
    }

    public static boolean test(Fn.Compare fn, long a, long b) {
        return switch (fn) {
            case EQ -> a == b;
            case NE -> a != b;
            case LT -> a < b;
            case LE -> a <= b;
            case GT -> a > b;
            case GE -> a >= b;
        };
    }

    /** Compares an integer element with a double scalar exactly (no rounding of either); NaN as in IEEE. */
    public static boolean test(Fn.Compare fn, long a, double b) {
        if (Double.isNaN(b)) {
            return fn == Fn.Compare.NE;
        }
        int c = compareExact(a, b);
        return switch (fn) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
        };
    }

    /** Sign of {@code a - b} computed exactly, for a non-NaN {@code b}. */
    static int compareExact(long a, double b) {
        if (b >= 0x1p63) {
            return -1;
        }
        if (b < -0x1p63) {
            return 1;
        }
        double fl = Math.floor(b);
        long f = (long) fl; // exact: |fl| <= 2^63 and integral; fl == 2^63 excluded above
        if (a != f) {
            return a < f ? -1 : 1;
        }
        return fl == b ? 0 : -1;
    }

    /** Wraps a 64-bit result to an integer dtype's width (two's complement; uint8 modulo 256; bool 0/1). */
    public static long wrap(DType t, long v) {
        return switch (t) {
            case INT8 -> (byte) v;
            case UINT8 -> v & 0xFF;
            case INT16 -> (short) v;
            case INT32 -> (int) v;
            case INT64 -> v;
            case BOOL -> v != 0 ? 1 : 0;
            case FP32, FP16, BF16 -> throw new IllegalArgumentException(t.text() + " is not an integer type");
        };
    }

    /** A scalar operand of an integer op: rounded to nearest even and saturated to int64. */
    public static long integerScalar(double value) {
        return DType.INT64.saturate(value, RoundingMode.RINT);
    }

    /**
     * Converts one element between dtypes, as cast, load and store do: same dtype copies the bits; float →
     * float rounds to nearest even; float → integer rounds by {@code mode} and saturates (NaN → 0); integer →
     * float rounds once to nearest even; integer → integer saturates; anything → bool is "non-zero" (NaN → 0).
     */
    public static void convert(DType from, MemorySegment src, long srcOff, DType to, MemorySegment dst, long dstOff,
                               RoundingMode mode) {
        if (from == to) {
            MemorySegment.copy(src, srcOff, dst, dstOff, from.byteSize());
        } else if (from.isFloat()) {
            float v = from.loadFloat(src, srcOff);
            if (to.isFloat()) {
                to.storeFloat(dst, dstOff, v);
            } else {
                to.storeLong(dst, dstOff, to.saturate(v, mode));
            }
        } else {
            to.storeLong(dst, dstOff, from.loadLong(src, srcOff));
        }
    }
}
