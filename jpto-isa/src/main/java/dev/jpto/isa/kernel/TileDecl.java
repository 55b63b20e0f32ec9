package dev.jpto.isa.kernel;

import dev.jpto.isa.DType;
import java.util.Objects;

/**
 * A tile a kernel uses: name, dtype and static shape, and where the kernel's source declares it
 * ({@code Attention.java:120}; empty when unknown, e.g. for a kernel parsed from text). The site is for messages
 * only (an on-chip buffer overflow names it): it is not part of the tile's identity, so equality ignores it.
 */
public record TileDecl(String name, DType dtype, int rows, int cols, String site) {
    public TileDecl {
        Objects.requireNonNull(site, "site");
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException("tile " + name + " must have a positive shape: " + rows + "x" + cols);
        }
    }

    /** A tile whose declaration site is unknown. */
    public TileDecl(String name, DType dtype, int rows, int cols) {
        this(name, dtype, rows, cols, "");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TileDecl t && name.equals(t.name) && dtype == t.dtype && rows == t.rows
                && cols == t.cols;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, dtype, rows, cols);
    }
}
