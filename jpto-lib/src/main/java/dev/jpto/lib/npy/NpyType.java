package dev.jpto.lib.npy;

import dev.jpto.isa.DType;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The element types jpto reads and writes in {@code .npy} files: little-endian numbers, one-byte integers and
 * booleans. Each maps to the {@link DType} a file of that type is read into by default.
 *
 * <p>{@code f8} has no jpto counterpart (there is no fp64 dtype): it is read into {@link DType#FP32}, each value
 * rounded to nearest, ties to even. {@link DType#BF16} has no numpy counterpart: it is written as {@code f4}.
 */
public enum NpyType {
    F4("f4", DType.FP32, ValueLayout.JAVA_FLOAT_UNALIGNED),
    F2("f2", DType.FP16, ValueLayout.JAVA_SHORT_UNALIGNED),
    F8("f8", DType.FP32, ValueLayout.JAVA_DOUBLE_UNALIGNED),
    I1("i1", DType.INT8, ValueLayout.JAVA_BYTE),
    I2("i2", DType.INT16, ValueLayout.JAVA_SHORT_UNALIGNED),
    I4("i4", DType.INT32, ValueLayout.JAVA_INT_UNALIGNED),
    I8("i8", DType.INT64, ValueLayout.JAVA_LONG_UNALIGNED),
    U1("u1", DType.UINT8, ValueLayout.JAVA_BYTE),
    B1("b1", DType.BOOL, ValueLayout.JAVA_BYTE);

    private final String code;
    private final DType dtype;
    private final ValueLayout fileLayout;

    NpyType(String code, DType dtype, ValueLayout layout) {
        this.code = code;
        this.dtype = dtype;
        this.fileLayout = layout.withOrder(ByteOrder.LITTLE_ENDIAN);
    }

    /** The kind-and-size code without byte order, e.g. {@code f4}. */
    public String code() {
        return code;
    }

    /** Bytes per element in the file. */
    public int itemSize() {
        return (int) fileLayout.byteSize();
    }

    /** The tensor dtype a file of this type is read into unless the caller asks for another. */
    public DType dtype() {
        return dtype;
    }

    /** The full numpy descr as written in headers: {@code |} for one-byte types, {@code <} otherwise. */
    public String descr() {
        return (itemSize() == 1 ? "|" : "<") + code;
    }

    /** Layout of one element in the file (little-endian). */
    ValueLayout fileLayout() {
        return fileLayout;
    }

    /** The type a tensor of {@code dtype} is written as: {@link DType#npyCode()} ({@code bf16} → {@code f4}). */
    public static NpyType forTensor(DType dtype) {
        for (NpyType t : values()) {
            if (t.code.equals(dtype.npyCode())) {
                return t;
            }
        }
        throw new IllegalArgumentException("dtype " + dtype.text() + " has npy code '" + dtype.npyCode()
                + "', which is not a supported .npy type (" + supportedDescrs() + ")");
    }

    /**
     * Parses a header descr. Accepts {@code <} for multi-byte types and {@code |} or {@code <} for one-byte types
     * (numpy writes {@code |}); rejects big-endian and every other type.
     */
    static NpyType fromDescr(String descr, Path file) throws NpyFormatException {
        if (descr.length() >= 2) {
            char order = descr.charAt(0);
            String code = descr.substring(1);
            for (NpyType t : values()) {
                if (!t.code.equals(code)) {
                    continue;
                }
                if (order == '<' || (order == '|' && t.itemSize() == 1)) {
                    return t;
                }
                if (order == '>' || order == '!') {
                    throw new NpyFormatException(file, "big-endian descr '" + descr
                            + "' is not supported; jpto reads little-endian data only (expected '" + t.descr()
                            + "'; convert with a.astype('" + t.descr() + "'))");
                }
                if (order == '=' && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
                    return t;
                }
            }
        }
        String lower = descr.toLowerCase(Locale.ROOT);
        throw new NpyFormatException(file, "descr '" + descr + "' is not supported; expected one of "
                + supportedDescrs() + (lower.startsWith(">") ? " (this file is big-endian)" : ""));
    }

    static String supportedDescrs() {
        StringBuilder sb = new StringBuilder();
        for (NpyType t : values()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(t.descr());
        }
        return sb.toString();
    }
}
