package dev.jpto.lib.registry;

import dev.jpto.isa.DType;
import dev.jpto.lib.gen.Init;
import java.util.Arrays;
import java.util.Objects;

/** One program input: its name, dtype and shape (as the program declares it) and how its data is generated. */
public record InputSpec(String name, DType dtype, long[] shape, InputFill fill) {
    public InputSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(fill, "fill");
        shape = shape.clone();
    }

    public static InputSpec of(String name, DType dtype, long[] shape, Init init) {
        return new InputSpec(name, dtype, shape, InputFill.of(init));
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InputSpec s && name.equals(s.name) && dtype == s.dtype && Arrays.equals(shape, s.shape)
                && fill.equals(s.fill);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(shape);
    }

    /** {@code q: bf16[2, 128, 64] normal(mean=0.0, std=1.0)}. */
    @Override
    public String toString() {
        return name + ": " + dtype.text() + Arrays.toString(shape) + " " + fill.describe();
    }
}
