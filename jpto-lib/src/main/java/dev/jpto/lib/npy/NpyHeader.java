package dev.jpto.lib.npy;

import java.util.Arrays;

/**
 * What a {@code .npy} header says about its array: element type, shape (C order) and the format version it was
 * (or will be) written with, and where the data starts.
 *
 * @param type         element type
 * @param shape        array shape; empty for a 0-d array
 * @param majorVersion format major version (1 or 2)
 * @param dataOffset   offset of the first data byte from the start of the file
 */
public record NpyHeader(NpyType type, long[] shape, int majorVersion, long dataOffset) {
    public NpyHeader {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** Number of elements (1 for a 0-d array). */
    public long numel() {
        long n = 1;
        for (long e : shape) {
            n = Math.multiplyExact(n, e);
        }
        return n;
    }

    /** Bytes of array data after the header. */
    public long dataBytes() {
        return Math.multiplyExact(numel(), type.itemSize());
    }

    /** The shape as Python prints a tuple: {@code ()}, {@code (3,)}, {@code (2, 3)}. */
    public String shapeTuple() {
        return NpyHeaderDescriptor.shapeTuple(shape);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NpyHeader h && type == h.type && Arrays.equals(shape, h.shape)
                && majorVersion == h.majorVersion && dataOffset == h.dataOffset;
    }

    @Override
    public int hashCode() {
        return (type.hashCode() * 31 + Arrays.hashCode(shape)) * 31 + Long.hashCode(dataOffset) + majorVersion;
    }

    @Override
    public String toString() {
        return "NpyHeader[" + type.descr() + " " + shapeTuple() + " v" + majorVersion + ".0 data@" + dataOffset + "]";
    }
}
