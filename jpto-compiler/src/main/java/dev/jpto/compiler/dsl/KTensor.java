package dev.jpto.compiler.dsl;

import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.TensorParam;

/** A tensor parameter of a kernel under construction; ops refer to it by {@link #index()}. */
public record KTensor(KernelBuilder owner, int index, TensorParam param) {
    public String name() {
        return param.name();
    }

    public DType dtype() {
        return param.dtype();
    }

    public int rank() {
        return param.rank();
    }

    @Override
    public String toString() {
        return param.name();
    }
}
