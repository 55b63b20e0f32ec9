package dev.jpto.isa;

/** Element types of tensors and tiles. */
public enum DType {
    FP32(4), FP16(2), BF16(2), INT8(1), UINT8(1), INT16(2), INT32(4), INT64(8), BOOL(1);

    private final int byteSize;

    DType(int byteSize) {
        this.byteSize = byteSize;
    }

    /** Bytes one element occupies in memory. */
    public int byteSize() {
        return byteSize;
    }
}
