package dev.jpto.compiler.dsl;

import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;

/** A scalar register of a kernel: a scalar parameter (set per task) or a loop variable. */
public record KScalar(KernelBuilder owner, String name, int slot) implements KIndex {
    @Override
    public Idx idx() {
        return Idx.slot(slot, 1, 0);
    }

    /** This register as a scalar operand (e.g. the value of a fill). */
    public Scalar value() {
        return Scalar.slot(slot);
    }

    @Override
    public String toString() {
        return name;
    }
}
