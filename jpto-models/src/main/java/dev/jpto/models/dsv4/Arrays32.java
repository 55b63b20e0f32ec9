package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Bulk copies between tensors and Java arrays for the goldens (fast path for contiguous little-endian views). */
final class Arrays32 {
    private Arrays32() {
    }

    /** All elements in C order as fp32 values (bf16 widened exactly; integers converted). */
    static float[] floats(Tensor t) {
        int n = size(t);
        float[] out = new float[n];
        MemorySegment seg = t.buffer();
        long base = t.offset() * t.dtype().byteSize();
        if (t.isContiguous() && t.dtype() == DType.FP32) {
            MemorySegment.copy(seg, ValueLayout.JAVA_FLOAT_UNALIGNED, base, out, 0, n);
        } else if (t.isContiguous() && t.dtype() == DType.BF16) {
            short[] s = new short[n];
            MemorySegment.copy(seg, ValueLayout.JAVA_SHORT_UNALIGNED, base, s, 0, n);
            for (int i = 0; i < n; i++) {
                out[i] = DType.bf16ToFloat(s[i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = (float) t.getDouble(i);
            }
        }
        return out;
    }

    /**
     * The elements of an fp32 tensor as a segment of floats in C order: its own memory when it is contiguous fp32
     * (read in place, no copy), else a copy ({@link #floats}).
     */
    static MemorySegment f32InPlace(Tensor t) {
        if (t.isContiguous() && t.dtype() == DType.FP32 && shared(t)) {
            return t.buffer().asSlice(t.offset() * 4, t.numel() * 4);
        }
        return MemorySegment.ofArray(floats(t));
    }

    /** A thread that owns no arena: a segment it may access is one the golden's pool threads may read too. */
    private static final Thread PROBE = new Thread(() -> { });

    /** Whether the goldens' fork-join threads may read the tensor's memory (not a confined arena's). */
    private static boolean shared(Tensor t) {
        return t.buffer().isAccessibleBy(PROBE);
    }

    /** As {@link #f32InPlace} for an int8 tensor's codes. */
    static MemorySegment i8InPlace(Tensor t) {
        if (t.isContiguous() && t.dtype() == DType.INT8 && shared(t)) {
            return t.buffer().asSlice(t.offset(), t.numel());
        }
        return MemorySegment.ofArray(bytes(t));
    }

    /** All elements of an int8 tensor. */
    static byte[] bytes(Tensor t) {
        require(t, DType.INT8);
        int n = size(t);
        byte[] out = new byte[n];
        if (t.isContiguous()) {
            MemorySegment.copy(t.buffer(), ValueLayout.JAVA_BYTE, t.offset(), out, 0, n);
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = (byte) t.getDouble(i);
            }
        }
        return out;
    }

    /** All elements of an integer tensor as ints (int64 values must fit). */
    static int[] ints(Tensor t) {
        int n = size(t);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = Math.toIntExact((long) t.getDouble(i));
        }
        return out;
    }

    /** Writes {@code values} (C order) into {@code t}, rounding to its dtype. */
    static void store(Tensor t, float[] values) {
        int n = size(t);
        if (values.length != n) {
            throw new IllegalArgumentException("store of " + values.length + " values into " + t);
        }
        if (t.isContiguous() && t.dtype() == DType.FP32) {
            MemorySegment.copy(values, 0, t.buffer(), ValueLayout.JAVA_FLOAT_UNALIGNED,
                    t.offset() * 4, n);
        } else if (t.isContiguous() && t.dtype() == DType.BF16) {
            short[] s = new short[n];
            for (int i = 0; i < n; i++) {
                s[i] = DType.floatToBf16(values[i]);
            }
            MemorySegment.copy(s, 0, t.buffer(), ValueLayout.JAVA_SHORT_UNALIGNED, t.offset() * 2, n);
        } else if (t.isContiguous() && t.dtype() == DType.INT8) {
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                b[i] = (byte) DType.INT8.saturate(values[i], dev.jpto.isa.RoundingMode.RINT);
            }
            MemorySegment.copy(b, 0, t.buffer(), ValueLayout.JAVA_BYTE, t.offset(), n);
        } else {
            for (int i = 0; i < n; i++) {
                t.setDouble(i, values[i]);
            }
        }
    }

    private static int size(Tensor t) {
        long n = t.numel();
        if (n > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("tensor " + t + " is too large for one Java array");
        }
        return (int) n;
    }

    private static void require(Tensor t, DType d) {
        if (t.dtype() != d) {
            throw new IllegalArgumentException("expected a " + d.text() + " tensor, got " + t);
        }
    }

    /** Writes {@code n} int8 codes into {@code t} from flat element {@code at} on (bulk for contiguous int8). */
    static void store(Tensor t, long at, byte[] codes, int n) {
        if (t.isContiguous() && t.dtype() == DType.INT8) {
            MemorySegment.copy(codes, 0, t.buffer(), ValueLayout.JAVA_BYTE, t.offset() + at, n);
        } else {
            for (int i = 0; i < n; i++) {
                t.setDouble(at + i, codes[i]);
            }
        }
    }
}
