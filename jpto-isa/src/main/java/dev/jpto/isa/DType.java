package dev.jpto.isa;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

/**
 * Element types of tensors and tiles, with their memory layout (little-endian) and conversions.
 *
 * <p>fp32→bf16 and fp32→fp16 round to nearest, ties to even, and keep NaN (quiet) and ±Inf; doubles and
 * longs stored into bf16/fp16 are rounded once, directly (never double-rounded through fp32). Conversions to
 * integer types saturate at the type's range; NaN becomes 0.
 */
public enum DType {
    FP32(4, Kind.FLOAT, "f4"),
    FP16(2, Kind.FLOAT, "f2"),
    BF16(2, Kind.FLOAT, "f4"),
    INT8(1, Kind.SIGNED, "i1"),
    UINT8(1, Kind.UNSIGNED, "u1"),
    INT16(2, Kind.SIGNED, "i2"),
    INT32(4, Kind.SIGNED, "i4"),
    INT64(8, Kind.SIGNED, "i8"),
    BOOL(1, Kind.BOOL, "b1");

    /** What arithmetic an element type has. */
    public enum Kind { FLOAT, SIGNED, UNSIGNED, BOOL }

    private static final ValueLayout.OfShort SHORT_LE = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT_LE = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private final int byteSize;
    private final Kind kind;
    private final String npyCode;

    DType(int byteSize, Kind kind, String npyCode) {
        this.byteSize = byteSize;
        this.kind = kind;
        this.npyCode = npyCode;
    }

    /** Bytes one element occupies in memory. */
    public int byteSize() {
        return byteSize;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isFloat() {
        return kind == Kind.FLOAT;
    }

    public boolean isInteger() {
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
    }

    /** The numpy type code this dtype is saved as ({@code bf16} is saved as {@code f4}). */
    public String npyCode() {
        return npyCode;
    }

    /** The lower-case name used in kernel text, manifests and messages, e.g. {@code bf16}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@link #text()}; the error lists the valid names. */
    public static DType fromText(String text) {
        for (DType t : values()) {
            if (t.text().equals(text)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown dtype '" + text + "'; valid: " + validNames());
    }

    public static String validNames() {
        StringBuilder sb = new StringBuilder();
        for (DType t : values()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(t.text());
        }
        return sb.toString();
    }

    /** Smallest value of an integer type (bool: 0). */
    public long minValue() {
        return switch (this) {
            case INT8 -> Byte.MIN_VALUE;
            case INT16 -> Short.MIN_VALUE;
            case INT32 -> Integer.MIN_VALUE;
            case INT64 -> Long.MIN_VALUE;
            case UINT8, BOOL -> 0;
            case FP32, FP16, BF16 -> throw new IllegalStateException(this + " is not an integer type");
        };
    }

    /** Largest value of an integer type (bool: 1). */
    public long maxValue() {
        return switch (this) {
            case INT8 -> Byte.MAX_VALUE;
            case INT16 -> Short.MAX_VALUE;
            case INT32 -> Integer.MAX_VALUE;
            case INT64 -> Long.MAX_VALUE;
            case UINT8 -> 255;
            case BOOL -> 1;
            case FP32, FP16, BF16 -> throw new IllegalStateException(this + " is not an integer type");
        };
    }

    // ---- loads and stores (little-endian, unaligned-safe) ----

    /** Reads the element at {@code byteOffset} as a float (integers converted exactly where fp32 can). */
    public float loadFloat(MemorySegment segment, long byteOffset) {
        return switch (this) {
            case FP32 -> segment.get(FLOAT_LE, byteOffset);
            case FP16 -> Float.float16ToFloat(segment.get(SHORT_LE, byteOffset));
            case BF16 -> bf16ToFloat(segment.get(SHORT_LE, byteOffset));
            case INT8, UINT8, INT16, INT32, INT64, BOOL -> (float) loadLong(segment, byteOffset);
        };
    }

    /** Writes {@code value} rounded to this type (nearest-even for bf16/fp16, saturating cast for integers). */
    public void storeFloat(MemorySegment segment, long byteOffset, float value) {
        switch (this) {
            case FP32 -> segment.set(FLOAT_LE, byteOffset, value);
            case FP16 -> segment.set(SHORT_LE, byteOffset, Float.floatToFloat16(value));
            case BF16 -> segment.set(SHORT_LE, byteOffset, floatToBf16(value));
            case INT8, UINT8, INT16, INT32, INT64, BOOL ->
                    storeLong(segment, byteOffset, saturate(value, RoundingMode.RINT));
        }
    }

    /** Reads the element as a long (floats truncated toward zero with saturation). */
    public long loadLong(MemorySegment segment, long byteOffset) {
        return switch (this) {
            case INT8 -> segment.get(ValueLayout.JAVA_BYTE, byteOffset);
            case UINT8 -> segment.get(ValueLayout.JAVA_BYTE, byteOffset) & 0xFF;
            case BOOL -> segment.get(ValueLayout.JAVA_BYTE, byteOffset) != 0 ? 1 : 0;
            case INT16 -> segment.get(SHORT_LE, byteOffset);
            case INT32 -> segment.get(INT_LE, byteOffset);
            case INT64 -> segment.get(LONG_LE, byteOffset);
            case FP32, FP16, BF16 -> INT64.saturate(loadFloat(segment, byteOffset), RoundingMode.TRUNC);
        };
    }

    /** Writes {@code value} saturated to this type's range (bool: non-zero → 1). */
    public void storeLong(MemorySegment segment, long byteOffset, long value) {
        switch (this) {
            case INT8, UINT8 -> segment.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) clamp(value));
            case BOOL -> segment.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) (value != 0 ? 1 : 0));
            case INT16 -> segment.set(SHORT_LE, byteOffset, (short) clamp(value));
            case INT32 -> segment.set(INT_LE, byteOffset, (int) clamp(value));
            case INT64 -> segment.set(LONG_LE, byteOffset, value);
            case FP32 -> segment.set(FLOAT_LE, byteOffset, (float) value);
            case FP16, BF16 -> storeDouble(segment, byteOffset, longToDoubleRoundToOdd(value));
        }
    }

    /** Reads the element as a double (exact for every type but int64 beyond 2^53). */
    public double loadDouble(MemorySegment segment, long byteOffset) {
        return isFloat() ? loadFloat(segment, byteOffset) : (double) loadLong(segment, byteOffset);
    }

    /**
     * Writes a double rounded once to this type: nearest even for float types (no double rounding through
     * fp32), saturating nearest-even for integers.
     */
    public void storeDouble(MemorySegment segment, long byteOffset, double value) {
        if (this == FP32) {
            segment.set(FLOAT_LE, byteOffset, (float) value);
        } else if (this == FP16) {
            segment.set(SHORT_LE, byteOffset, doubleToFp16(value));
        } else if (this == BF16) {
            segment.set(SHORT_LE, byteOffset, doubleToBf16(value));
        } else {
            storeLong(segment, byteOffset, saturate(value, RoundingMode.RINT));
        }
    }

    // ---- conversions ----

    /** Rounds {@code value} to the nearest value representable in this type (identity for fp32). */
    public float round(float value) {
        return switch (this) {
            case FP32 -> value;
            case FP16 -> Float.float16ToFloat(Float.floatToFloat16(value));
            case BF16 -> bf16ToFloat(floatToBf16(value));
            case INT8, UINT8, INT16, INT32, INT64, BOOL -> (float) saturate(value, RoundingMode.RINT);
        };
    }

    /** Converts a float to this integer type with the given rounding, saturating; NaN gives 0. */
    public long saturate(double value, RoundingMode mode) {
        if (this == BOOL) {
            return value != 0 && !Double.isNaN(value) ? 1 : 0;
        }
        if (Double.isNaN(value)) {
            return 0;
        }
        double r = mode.apply(value);
        long min = minValue();
        long max = maxValue();
        if (r <= min) {
            return min;
        }
        if (r >= max) {
            return max;
        }
        return (long) r;
    }

    private long clamp(long value) {
        return Math.max(minValue(), Math.min(maxValue(), value));
    }

    /** bf16 bits → fp32: bf16 is the high half of an fp32. */
    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /** fp32 → bf16 bits, round to nearest, ties to even; NaN stays a (quiet) NaN, ±Inf stays ±Inf. */
    public static short floatToBf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7FFFFFFF) > 0x7F800000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        int lsb = (bits >>> 16) & 1;
        return (short) ((bits + 0x7FFF + lsb) >>> 16);
    }

    /** double → bf16 bits, rounded once to nearest even. */
    public static short doubleToBf16(double value) {
        return floatToBf16(toFloatRoundToOdd(value));
    }

    /** double → fp16 bits, rounded once to nearest even. */
    public static short doubleToFp16(double value) {
        return Float.floatToFloat16(toFloatRoundToOdd(value));
    }

    /**
     * double → fp32 rounding to odd: an inexact result is truncated toward zero and gets its last bit set.
     * Rounding that to a format at least two bits narrower (bf16, fp16) to nearest even gives the same
     * result as rounding the double directly, which plain double → float → bf16 does not (the first
     * rounding can manufacture a tie).
     */
    static float toFloatRoundToOdd(double value) {
        float f = (float) value;
        if (Float.isNaN(f) || (double) f == value) {
            return f;
        }
        if (Math.abs((double) f) > Math.abs(value)) {
            f = Math.nextAfter(f, 0.0);
        }
        return Float.intBitsToFloat(Float.floatToRawIntBits(f) | 1);
    }

    /** long → double rounding to odd (exact below 2^53), for the same reason as {@link #toFloatRoundToOdd}. */
    static double longToDoubleRoundToOdd(long value) {
        if (value == Long.MIN_VALUE) {
            return -0x1p63;
        }
        long mag = Math.abs(value);
        int shift = 64 - Long.numberOfLeadingZeros(mag) - 53;
        if (shift <= 0) {
            return value;
        }
        long m = mag >>> shift;
        if ((mag & ((1L << shift) - 1)) != 0) {
            m |= 1;
        }
        return Math.copySign(Math.scalb((double) m, shift), value);
    }
}
