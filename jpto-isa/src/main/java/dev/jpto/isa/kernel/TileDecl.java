package dev.jpto.isa.kernel;

import dev.jpto.isa.DType;

/** A tile a kernel uses: name, dtype and static shape. */
public record TileDecl(String name, DType dtype, int rows, int cols) {
    public TileDecl {
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException("tile " + name + " must have a positive shape: " + rows + "x" + cols);
        }
    }
}
