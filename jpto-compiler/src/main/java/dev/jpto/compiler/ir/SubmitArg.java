package dev.jpto.compiler.ir;

import dev.jpto.runtime.Direction;

/** One argument of a task submission, in kernel parameter order (tensor parameters, then scalar parameters). */
public sealed interface SubmitArg {
    /** A tensor (or view) passed with a dependency direction. OUTPUT is only for producing an intermediate. */
    record TensorArg(TensorExpr tensor, Direction direction) implements SubmitArg {
        @Override
        public String toString() {
            return direction.name().toLowerCase(java.util.Locale.ROOT) + " " + tensor;
        }
    }

    /** An integer scalar argument that may depend on loop variables (e.g. a tile index). */
    record IndexArg(Affine value) implements SubmitArg {
        @Override
        public String toString() {
            return "scalar " + value;
        }
    }

    /** A floating-point scalar constant (e.g. a scale factor). */
    record FloatArg(double value) implements SubmitArg {
        @Override
        public String toString() {
            return "scalar " + value;
        }
    }
}
