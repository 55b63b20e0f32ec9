package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;

import java.util.Arrays;

/**
 * One tensor parameter of a program: the original's name, dtype and shape at a preset, its direction and how it
 * is generated. {@code validated} marks outputs the harness compares against the golden.
 */
public record TensorSpec(String name, DType dtype, long[] shape, Direction direction, Init init, boolean validated) {

    /** Parameter direction, as in the original's {@code pl.Tensor} / {@code pl.InOut} / {@code pl.Out}. */
    public enum Direction { IN, INOUT, OUT }

    public TensorSpec {
        shape = shape.clone();
        for (long e : shape) {
            if (e <= 0) {
                throw new IllegalArgumentException("tensor " + name + " must have positive extents: shape="
                        + Arrays.toString(shape));
            }
        }
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public long numel() {
        long n = 1;
        for (long e : shape) {
            n = Math.multiplyExact(n, e);
        }
        return n;
    }

    public long byteSize() {
        return numel() * dtype.byteSize();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorSpec s && name.equals(s.name) && dtype == s.dtype && Arrays.equals(shape, s.shape)
                && direction == s.direction && init.equals(s.init) && validated == s.validated;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return name + ": " + dtype.text() + Arrays.toString(shape) + " " + direction + " (" + init.describe() + ")";
    }
}
