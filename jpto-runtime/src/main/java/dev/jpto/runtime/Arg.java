package dev.jpto.runtime;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.util.Arrays;
import java.util.Objects;

/** A task argument: a tensor with a direction, a runtime-allocated output, or a scalar passed by value. */
public sealed interface Arg {

    /** A caller-provided tensor (host buffer or an earlier task's output). Direction must not be OUTPUT. */
    record TensorArg(Tensor tensor, Direction direction) implements Arg {
        public TensorArg {
            Objects.requireNonNull(tensor, "tensor");
            Objects.requireNonNull(direction, "direction");
            if (direction == Direction.OUTPUT) {
                throw new IllegalArgumentException("direction OUTPUT allocates a new buffer: use Arg.output(dtype, "
                        + "shape), or OUTPUT_EXISTING to write into " + tensor);
            }
        }
    }

    /** A buffer the runtime allocates on the heap ring of the submitting scope (direction OUTPUT). */
    record Output(DType dtype, long[] shape) implements Arg {
        public Output {
            Objects.requireNonNull(dtype, "dtype");
            shape = shape.clone();
            for (long e : shape) {
                if (e < 0) {
                    throw new IllegalArgumentException("output shape " + Arrays.toString(shape)
                            + " has a negative extent");
                }
            }
        }

        @Override
        public long[] shape() {
            return shape.clone();
        }

        /** Bytes of the buffer before the 1024-byte output alignment. */
        public long byteSize() {
            return Tensor.numel(shape) * dtype.byteSize();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Output(DType d, long[] s) && d == dtype && Arrays.equals(s, shape);
        }

        @Override
        public int hashCode() {
            return dtype.hashCode() * 31 + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return "Output[" + dtype.text() + Arrays.toString(shape) + "]";
        }
    }

    /** A scalar passed by value. */
    record ScalarArg(double value) implements Arg {}

    static Arg input(Tensor t) {
        return new TensorArg(t, Direction.INPUT);
    }

    static Arg inout(Tensor t) {
        return new TensorArg(t, Direction.INOUT);
    }

    static Arg outputExisting(Tensor t) {
        return new TensorArg(t, Direction.OUTPUT_EXISTING);
    }

    static Arg noDep(Tensor t) {
        return new TensorArg(t, Direction.NO_DEP);
    }

    static Arg output(DType dtype, long... shape) {
        return new Output(dtype, shape);
    }

    static Arg scalar(double v) {
        return new ScalarArg(v);
    }
}
