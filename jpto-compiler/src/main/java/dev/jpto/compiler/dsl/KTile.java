package dev.jpto.compiler.dsl;

import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.TileDecl;

/** A tile of a kernel under construction; ops refer to it by {@link #index()}. */
public record KTile(KernelBuilder owner, int index, TileDecl decl) {
    public String name() {
        return decl.name();
    }

    public DType dtype() {
        return decl.dtype();
    }

    public int rows() {
        return decl.rows();
    }

    public int cols() {
        return decl.cols();
    }

    @Override
    public String toString() {
        return decl.name();
    }
}
