package dev.jpto.isa;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * An N-dimensional view of a buffer: dtype, shape, strides and offset (both in elements) over a
 * {@link MemorySegment} holding the whole buffer. Views and slices share the buffer; nothing is copied.
 *
 * <p>The buffer's identity ({@link #bufferAddress()}) is what the runtime's TensorMap keys on, so every
 * view of one buffer is recognised as the same storage.
 */
public final class Tensor {
    private final MemorySegment buffer;
    private final DType dtype;
    private final long[] shape;
    private final long[] strides;
    private final long offset;
    /**
     * Copies of {@code buffer.address()} and {@code shape.length}: the runtime reads both for every tensor
     * argument it submits, and here they sit on the view's own cache line instead of two other objects'.
     */
    private final long bufferAddress;
    private final int rank;

    private Tensor(MemorySegment buffer, DType dtype, long[] shape, long[] strides, long offset) {
        this.buffer = buffer;
        this.dtype = dtype;
        this.shape = shape;
        this.strides = strides;
        this.offset = offset;
        this.bufferAddress = buffer.address();
        this.rank = shape.length;
    }

    /** A view with explicit strides and offset; checks that every element lies inside the buffer. */
    public static Tensor of(MemorySegment buffer, DType dtype, long[] shape, long[] strides, long offset) {
        if (shape.length != strides.length) {
            throw new IllegalArgumentException("tensor shape " + Arrays.toString(shape) + " and strides "
                    + Arrays.toString(strides) + " must have the same rank");
        }
        long lo = offset;
        long hi = offset;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] < 0) {
                throw new IllegalArgumentException("tensor shape " + Arrays.toString(shape)
                        + " has a negative extent in dimension " + d);
            }
            if (shape[d] == 0) {
                lo = hi = offset;
                break;
            }
            long span = (shape[d] - 1) * strides[d];
            if (span < 0) {
                lo += span;
            } else {
                hi += span;
            }
        }
        long elements = buffer.byteSize() / dtype.byteSize();
        if (lo < 0 || (numel(shape) > 0 && hi >= elements)) {
            throw new IllegalArgumentException("tensor view shape=" + Arrays.toString(shape) + " strides="
                    + Arrays.toString(strides) + " offset=" + offset + " reaches elements [" + lo + ", " + hi
                    + "] outside its buffer of " + elements + " " + dtype.text() + " elements");
        }
        return new Tensor(buffer, dtype, shape.clone(), strides.clone(), offset);
    }

    /** A contiguous (C-order) tensor over the whole of {@code buffer}. */
    public static Tensor wrap(MemorySegment buffer, DType dtype, long... shape) {
        long need = numel(shape) * dtype.byteSize();
        if (buffer.byteSize() < need) {
            throw new IllegalArgumentException("buffer of " + buffer.byteSize() + " bytes is too small for "
                    + dtype.text() + Arrays.toString(shape) + " (" + need + " bytes)");
        }
        return of(buffer, dtype, shape, contiguousStrides(shape), 0);
    }

    /** A new zero-filled contiguous tensor allocated in {@code arena}, 64-byte aligned. */
    public static Tensor allocate(Arena arena, DType dtype, long... shape) {
        MemorySegment seg = arena.allocate(Math.max(1, numel(shape) * dtype.byteSize()), 64);
        return wrap(seg, dtype, shape);
    }

    public static long[] contiguousStrides(long[] shape) {
        long[] s = new long[shape.length];
        long acc = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            s[d] = acc;
            acc *= shape[d];
        }
        return s;
    }

    public static long numel(long[] shape) {
        long n = 1;
        for (long e : shape) {
            n = Math.multiplyExact(n, e);
        }
        return n;
    }

    public MemorySegment buffer() {
        return buffer;
    }

    /** Address of the buffer's first byte: the identity of the storage shared by all its views. */
    public long bufferAddress() {
        return bufferAddress;
    }

    public DType dtype() {
        return dtype;
    }

    public int rank() {
        return rank;
    }

    public long[] shape() {
        return shape.clone();
    }

    public long shape(int dim) {
        return shape[dim];
    }

    public long[] strides() {
        return strides.clone();
    }

    public long stride(int dim) {
        return strides[dim];
    }

    /** Offset of the first element from the buffer start, in elements. */
    public long offset() {
        return offset;
    }

    public long numel() {
        return numel(shape);
    }

    /** Size of this view's elements in bytes (numel × element size). */
    public long byteSize() {
        return numel() * dtype.byteSize();
    }

    public boolean isContiguous() {
        return Arrays.equals(strides, contiguousStrides(shape)) || numel() <= 1;
    }

    /** A slice: {@code starts[d] .. starts[d]+extents[d]} in every dimension; shares the buffer. */
    public Tensor slice(long[] starts, long[] extents) {
        if (starts.length != rank() || extents.length != rank()) {
            throw new IllegalArgumentException("slice of a rank-" + rank() + " tensor needs " + rank()
                    + " starts and extents, got " + starts.length + " and " + extents.length);
        }
        long off = offset;
        for (int d = 0; d < rank(); d++) {
            if (starts[d] < 0 || extents[d] < 0 || starts[d] + extents[d] > shape[d]) {
                throw new IllegalArgumentException("slice [" + starts[d] + ", " + (starts[d] + extents[d])
                        + ") is outside dimension " + d + " of extent " + shape[d] + " (shape "
                        + Arrays.toString(shape) + ")");
            }
            off += starts[d] * strides[d];
        }
        return new Tensor(buffer, dtype, extents.clone(), strides.clone(), off);
    }

    /** A contiguous tensor viewed with another shape of the same element count. */
    public Tensor reshape(long... newShape) {
        if (!isContiguous()) {
            throw new IllegalArgumentException("reshape needs a contiguous tensor; shape "
                    + Arrays.toString(shape) + " strides " + Arrays.toString(strides) + " is not");
        }
        if (numel(newShape) != numel()) {
            throw new IllegalArgumentException("reshape from " + Arrays.toString(shape) + " to "
                    + Arrays.toString(newShape) + " changes the element count");
        }
        return new Tensor(buffer, dtype, newShape.clone(), contiguousStrides(newShape), offset);
    }

    /** Byte offset in the buffer of the element at {@code index} (one index per dimension). */
    public long byteOffset(long... index) {
        if (index.length != rank()) {
            throw new IllegalArgumentException("index " + Arrays.toString(index) + " has rank " + index.length
                    + ", tensor has rank " + rank());
        }
        long e = offset;
        for (int d = 0; d < index.length; d++) {
            if (index[d] < 0 || index[d] >= shape[d]) {
                throw new IndexOutOfBoundsException("index " + Arrays.toString(index) + " outside shape "
                        + Arrays.toString(shape));
            }
            e += index[d] * strides[d];
        }
        return e * dtype.byteSize();
    }

    /** Byte offset of the {@code flat}-th element in C order of this view. */
    public long byteOffsetOfFlat(long flat) {
        long e = offset;
        for (int d = rank() - 1; d >= 0; d--) {
            long i = flat % shape[d];
            flat /= shape[d];
            e += i * strides[d];
        }
        return e * dtype.byteSize();
    }

    /** Element {@code flat} (C order) as a double. Slow path for I/O, goldens and tests. */
    public double getDouble(long flat) {
        return dtype.loadDouble(buffer, byteOffsetOfFlat(flat));
    }

    /** Sets element {@code flat} (C order), rounding to the dtype. Slow path for I/O, goldens and tests. */
    public void setDouble(long flat, double value) {
        dtype.storeDouble(buffer, byteOffsetOfFlat(flat), value);
    }

    /** Copies every element in C order into a new array of doubles. */
    public double[] toDoubleArray() {
        long n = numel();
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("tensor of " + n + " elements is too large for a Java array");
        }
        double[] out = new double[(int) n];
        for (int i = 0; i < out.length; i++) {
            out[i] = getDouble(i);
        }
        return out;
    }

    /** Copies the elements of {@code src} (same shape, any dtypes) into this view, converting. */
    public void copyFrom(Tensor src) {
        if (!Arrays.equals(shape, src.shape)) {
            throw new IllegalArgumentException("copy from shape " + Arrays.toString(src.shape) + " into shape "
                    + Arrays.toString(shape));
        }
        long n = numel();
        for (long i = 0; i < n; i++) {
            setDouble(i, src.getDouble(i));
        }
    }

    @Override
    public String toString() {
        return dtype.text() + Arrays.toString(shape) + (isContiguous() ? "" : " strides=" + Arrays.toString(strides))
                + (offset == 0 ? "" : " offset=" + offset);
    }
}
