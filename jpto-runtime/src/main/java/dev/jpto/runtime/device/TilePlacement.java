package dev.jpto.runtime.device;

import dev.jpto.isa.kernel.TileDecl;

/** One tile in one on-chip buffer: the bytes it takes there, its shape padded as that buffer stores it. */
public record TilePlacement(TileDecl tile, long bytes) {
    /** {@code q bf16[64x128] 16384 B}. */
    public String describe() {
        return tile.name() + " " + tile.dtype().text() + "[" + tile.rows() + "x" + tile.cols() + "] " + bytes + " B";
    }

    /** {@link #describe()} and, where known, the declaration: {@code q bf16[64x128] 16384 B (Attention.java:120)}. */
    public String describeWithSite() {
        return describe() + (tile.site().isEmpty() ? "" : " (" + tile.site() + ")");
    }
}
