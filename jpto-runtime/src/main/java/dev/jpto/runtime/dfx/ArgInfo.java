package dev.jpto.runtime.dfx;

import dev.jpto.isa.DType;
import dev.jpto.runtime.Direction;
import java.util.Arrays;

/**
 * One task argument at submit time. Tensor arguments (caller tensors and runtime-allocated outputs) carry their
 * view and the id of the buffer version they name; scalars carry their value.
 *
 * @param direction the argument's direction, null for a scalar
 * @param tensorId id in the run's tensor table, −1 for a scalar
 */
record ArgInfo(int index, Direction direction, DType dtype, long[] shape, long[] strides, long offset,
               long tensorId, double scalar) {

    boolean isTensor() {
        return direction != null;
    }

    /** {@code input}, {@code output}, {@code inout}, {@code output_existing}, {@code no_dep}, {@code scalar}. */
    String role() {
        return direction == null ? "scalar" : role(direction);
    }

    static String role(Direction d) {
        return d.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code in fp32[128, 64]} — the short form shown in trace slices. */
    String summary() {
        if (!isTensor()) {
            return "scalar " + scalar;
        }
        return role() + " " + dtype.text() + Arrays.toString(shape);
    }
}
