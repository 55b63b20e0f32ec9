package dev.jpto.isa;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An on-chip tile: a row-major {@code rows × cols} buffer of one dtype, with a valid region
 * {@code validRows × validCols} at its top-left that ops read and write. Elements are stored in the
 * tile's own dtype (a bf16 tile holds bf16 values), so every op's rounding is the device's.
 */
public final class Tile {
    private final DType dtype;
    private final int rows;
    private final int cols;
    private final MemorySegment data;
    private int validRows;
    private int validCols;

    private Tile(DType dtype, int rows, int cols, MemorySegment data) {
        this.dtype = dtype;
        this.rows = rows;
        this.cols = cols;
        this.data = data;
        this.validRows = rows;
        this.validCols = cols;
    }

    /** A zero-filled tile in native memory, 64-byte aligned, freed when unreachable. */
    public static Tile allocate(DType dtype, int rows, int cols) {
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException("tile shape must be positive: rows=" + rows + " cols=" + cols);
        }
        long bytes = (long) rows * cols * dtype.byteSize();
        return new Tile(dtype, rows, cols, Arena.ofAuto().allocate(bytes, 64));
    }

    public DType dtype() {
        return dtype;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int validRows() {
        return validRows;
    }

    public int validCols() {
        return validCols;
    }

    /** Sets the valid region; it must lie inside the tile. */
    public void setValid(int validRows, int validCols) {
        if (validRows < 0 || validRows > rows || validCols < 0 || validCols > cols) {
            throw new IllegalArgumentException("valid region " + validRows + "x" + validCols
                    + " does not fit tile " + rows + "x" + cols);
        }
        this.validRows = validRows;
        this.validCols = validCols;
    }

    /** The raw row-major storage (row stride = {@code cols} elements). */
    public MemorySegment data() {
        return data;
    }

    /** Byte offset of element (r, c) in {@link #data()}. */
    public long byteOffset(int r, int c) {
        return ((long) r * cols + c) * dtype.byteSize();
    }

    public float getFloat(int r, int c) {
        return dtype.loadFloat(data, byteOffset(r, c));
    }

    /** Stores {@code v} rounded to the tile's dtype. */
    public void setFloat(int r, int c, float v) {
        dtype.storeFloat(data, byteOffset(r, c), v);
    }

    public long getLong(int r, int c) {
        return dtype.loadLong(data, byteOffset(r, c));
    }

    /** Stores {@code v} saturated to the tile's dtype. */
    public void setLong(int r, int c, long v) {
        dtype.storeLong(data, byteOffset(r, c), v);
    }

    /** Zeroes the whole tile (valid region unchanged). */
    public void clear() {
        data.fill((byte) 0);
    }

    /** "bf16[16x64 valid 16x40]": how messages name a tile. */
    public String describe() {
        return dtype.text() + "[" + rows + "x" + cols
                + (validRows == rows && validCols == cols ? "" : " valid " + validRows + "x" + validCols) + "]";
    }

    @Override
    public String toString() {
        return describe();
    }
}
