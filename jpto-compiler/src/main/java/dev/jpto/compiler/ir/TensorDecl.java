package dev.jpto.compiler.ir;

import dev.jpto.isa.DType;
import java.util.Arrays;

/** A named tensor with a static shape: a program input, a program output, or an intermediate allocation. */
public record TensorDecl(String name, DType dtype, long[] shape) {
    public TensorDecl {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public long numel() {
        long n = 1;
        for (long e : shape) {
            n = Math.multiplyExact(n, e);
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorDecl d && name.equals(d.name) && dtype == d.dtype && Arrays.equals(shape, d.shape);
    }

    @Override
    public int hashCode() {
        return (name.hashCode() * 31 + dtype.hashCode()) * 31 + Arrays.hashCode(shape);
    }

    /** "x: fp32[256, 128]". */
    @Override
    public String toString() {
        return name + ": " + dtype.text() + Arrays.toString(shape);
    }
}
