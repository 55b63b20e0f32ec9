package dev.jpto.isa.op;

/** A scalar operand: an immediate, or a scalar register (parameter or loop variable) read at run time. */
public sealed interface Scalar {
    /** A constant, written into the op. */
    record Imm(double value) implements Scalar {
    }

    /** Scalar register {@code slot} of the kernel: a scalar parameter or a loop variable, read when the op runs. */
    record Slot(int slot) implements Scalar {
    }

    static Scalar imm(double value) {
        return new Imm(value);
    }

    static Scalar slot(int slot) {
        return new Slot(slot);
    }

    default double eval(double[] scalars) {
        return switch (this) {
            case Imm i -> i.value();
            case Slot s -> scalars[s.slot()];
        };
    }
}
