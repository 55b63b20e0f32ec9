package dev.jpto.isa.engine.simd;

import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;

/**
 * Data movement as bulk row copies (the JDK's vectorized memory copy), for the cases where a row is
 * contiguous on both sides and no dtype conversion is needed. Callers check operands first.
 */
public final class Moves {
    private Moves() {
    }

    /** Whether a tensor region's rows are contiguous runs of the tile's dtype. */
    public static boolean rowsContiguous(Tensor t, Tile tile) {
        return t.dtype() == tile.dtype() && t.stride(t.rank() - 1) == 1;
    }

    /** Element index (in the buffer) of the tensor element at {@code offsets}. */
    public static long baseElement(Tensor t, long[] offsets) {
        long e = t.offset();
        for (int d = 0; d < offsets.length; d++) {
            e += offsets[d] * t.stride(d);
        }
        return e;
    }

    /** Row stride of a region in elements (a rank-1 tensor is one row). */
    public static long rowStride(Tensor t) {
        return t.rank() >= 2 ? t.stride(t.rank() - 2) : 0;
    }

    public static void load(Tile dst, Tensor src, long[] offsets, int rows, int cols) {
        long base = baseElement(src, offsets);
        long stride = rowStride(src);
        long bytes = (long) cols * dst.dtype().byteSize();
        int size = src.dtype().byteSize();
        for (int r = 0; r < rows; r++) {
            MemorySegment.copy(src.buffer(), (base + r * stride) * size, dst.data(), dst.byteOffset(r, 0), bytes);
        }
    }

    public static void store(Tile src, Tensor dst, long[] offsets) {
        long base = baseElement(dst, offsets);
        long stride = rowStride(dst);
        long bytes = (long) src.validCols() * src.dtype().byteSize();
        int size = dst.dtype().byteSize();
        for (int r = 0; r < src.validRows(); r++) {
            MemorySegment.copy(src.data(), src.byteOffset(r, 0), dst.buffer(), (base + r * stride) * size, bytes);
        }
    }

    /** Copies row {@code srcRow} of src (columns {@code 0 .. cols}) to row {@code dstRow} of dst. */
    public static void copyRow(Tile src, int srcRow, Tile dst, int dstRow, int cols) {
        MemorySegment.copy(src.data(), src.byteOffset(srcRow, 0), dst.data(), dst.byteOffset(dstRow, 0),
                (long) cols * src.dtype().byteSize());
    }

    /**
     * Fills the valid region with one element pattern: element (0, 0) is written by {@code first}, then row 0
     * is doubled up by bulk copies and the other rows copy row 0.
     */
    public static void fillFromFirst(Tile dst) {
        int rows = dst.validRows();
        int cols = dst.validCols();
        int size = dst.dtype().byteSize();
        MemorySegment d = dst.data();
        long row0 = dst.byteOffset(0, 0);
        for (long done = 1; done < cols; done *= 2) {
            long n = Math.min(done, cols - done);
            MemorySegment.copy(d, row0, d, row0 + done * size, n * size);
        }
        for (int r = 1; r < rows; r++) {
            MemorySegment.copy(d, row0, d, dst.byteOffset(r, 0), (long) cols * size);
        }
    }
}
