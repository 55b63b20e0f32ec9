package dev.jpto.compiler.l3;

import dev.jpto.compiler.ir.Verifier;
import dev.jpto.isa.DType;
import java.util.Arrays;
import java.util.Objects;

/**
 * A tensor of the host level: an L3 program's input, output, or scratch (a host intermediate that the runner
 * allocates, zero-filled, for one run). Bound whole to a chip-program parameter, or through a view:
 * {@link #slice}, {@link #rows}, {@link #cols}, {@link #at} (views of views compose).
 */
public record HostTensor(String name, Kind kind, DType dtype, long[] shape) implements HostView {
    /** Who supplies the tensor: the caller (inputs are only read, outputs written) or the runner (scratch). */
    public enum Kind { INPUT, OUTPUT, SCRATCH }

    public HostTensor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(dtype, "dtype");
        if (!Verifier.isIdentifier(name)) {
            throw new IllegalArgumentException("host tensor name '" + name + "' must be an identifier ("
                    + Verifier.IDENTIFIER_RULE + "): it names the file <name>.npy");
        }
        shape = shape.clone();
        if (shape.length == 0) {
            throw new IllegalArgumentException("host tensor '" + name + "' needs at least one dimension");
        }
        for (long e : shape) {
            if (e < 1) {
                throw new IllegalArgumentException("host tensor '" + name + "' extents must be >= 1: shape="
                        + Arrays.toString(shape));
            }
        }
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public HostTensor tensor() {
        return this;
    }

    @Override
    public long[] starts() {
        return new long[shape.length];
    }

    @Override
    public long[] extents() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    @Override
    public boolean dropped(int d) {
        return false;
    }

    @Override
    public String text() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HostTensor t && name.equals(t.name) && kind == t.kind && dtype == t.dtype
                && Arrays.equals(shape, t.shape);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, kind, dtype, Arrays.hashCode(shape));
    }

    /** "a: bf16[256, 512]". */
    @Override
    public String toString() {
        return name + ": " + dtype.text() + Arrays.toString(shape);
    }
}
