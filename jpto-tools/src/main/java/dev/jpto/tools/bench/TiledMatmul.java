package dev.jpto.tools.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.TileEngine;

/**
 * {@code C = A·B} for square row-major tensors, run the way a kernel runs it on one core: for each C tile
 * (tile × tile of the accumulator dtype: fp32, or int32 for int8 inputs), for each K tile, load an A tile and a B tile from the tensors into two reused tiles and
 * matmul-accumulate into the C tile; then store the C tile. The tiles are allocated once; the loop allocates
 * nothing.
 */
public final class TiledMatmul {
    private final TileEngine engine;
    private final Tensor a;
    private final Tensor b;
    private final Tensor c;
    private final int tile;
    private final int tilesPerSide;
    private final Tile ta;
    private final Tile tb;
    private final Tile tc;
    private final long[] aOff = new long[2];
    private final long[] bOff = new long[2];
    private final long[] cOff = new long[2];

    /**
     * A and B are {@code size × size} tensors of the input dtype, C one of {@link #accumulator} of it; size must be
     * a multiple of tile.
     */
    public TiledMatmul(TileEngine engine, Tensor a, Tensor b, Tensor c, int tile) {
        int size = (int) a.shape(0);
        checkSize(size, tile);
        this.engine = engine;
        this.a = a;
        this.b = b;
        this.c = c;
        this.tile = tile;
        this.tilesPerSide = size / tile;
        this.ta = Tile.allocate(a.dtype(), tile, tile);
        this.tb = Tile.allocate(b.dtype(), tile, tile);
        this.tc = Tile.allocate(accumulator(a.dtype()), tile, tile);
    }

    /** The dtype matmul accumulates an input dtype in: int32 for int8, fp32 for the float types. */
    public static DType accumulator(DType input) {
        return input == DType.INT8 ? DType.INT32 : DType.FP32;
    }

    /**
     * The rule for a problem: a tile edge of at least 1 and a size that is a positive multiple of it. A bad size
     * gets the nearest multiple of the tile at or above its magnitude as the suggestion.
     */
    public static void checkSize(int size, int tile) {
        if (tile < 1) {
            throw new IllegalArgumentException("tile must be >= 1: tile=" + tile + " (try 128)");
        }
        if (size <= 0 || size % tile != 0) {
            long magnitude = Math.max(tile, Math.abs((long) size));
            long suggestion = (magnitude + tile - 1) / tile * tile;
            throw new IllegalArgumentException("size must be a positive multiple of the tile edge " + tile
                    + ": size=" + size + " (try " + suggestion + ")");
        }
    }

    /** Number of C tiles of the whole problem. */
    public int cTiles() {
        return tilesPerSide * tilesPerSide;
    }

    /** Computes the first {@code count} C tiles (row-major order of tiles); each takes size/tile matmul calls. */
    public void run(int count) {
        for (int t = 0; t < count; t++) {
            int i = t / tilesPerSide;
            int j = t % tilesPerSide;
            for (int k = 0; k < tilesPerSide; k++) {
                aOff[0] = (long) i * tile;
                aOff[1] = (long) k * tile;
                bOff[0] = (long) k * tile;
                bOff[1] = (long) j * tile;
                engine.load(ta, a, aOff, tile, tile);
                engine.load(tb, b, bOff, tile, tile);
                engine.matmul(tc, ta, tb, false, k > 0);
            }
            cOff[0] = (long) i * tile;
            cOff[1] = (long) j * tile;
            engine.store(tc, c, cOff);
        }
    }

    /** Floating-point operations of {@code count} C tiles (2 per multiply-add). */
    public long flops(int count) {
        return 2L * tile * tile * (long) tile * tilesPerSide * count;
    }
}
