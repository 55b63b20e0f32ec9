package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.RandomTiles.assertSame;
import static dev.jpto.isa.engine.RandomTiles.random;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Load, load_rows and store of both engines on views: contiguous tensors, slices of larger tensors, transposed
 * (column-strided) views and rank-3 tensors, with the tile's dtype usually the tensor's (the vector engine's bulk
 * path) and sometimes another (the converting path).
 */
class MovementAgreementTest {
    private static final TileEngine VECTOR = new VectorEngine();
    private static final TileEngine SCALAR = new ScalarEngine();

    /** A random view: rank 2 or 3, possibly a slice and possibly with rows and columns swapped. */
    private static Tensor view(Random rnd, MemorySegment buffer, DType t, int rows, int cols) {
        int batch = 1 + rnd.nextInt(2);
        long pad = rnd.nextInt(3);
        long[] full = {batch, rows + pad, cols + pad};
        Tensor base = Tensor.wrap(buffer, t, full);
        Tensor sliced = base.slice(new long[] {0, rnd.nextInt((int) pad + 1), rnd.nextInt((int) pad + 1)},
                new long[] {batch, rows, cols});
        if (rnd.nextInt(4) == 0) {
            // the transposed view of a cols × rows layout: columns are strided
            Tensor raw = Tensor.wrap(buffer, t, batch, cols, rows);
            return Tensor.of(buffer, t, new long[] {batch, rows, cols}, new long[] {raw.stride(0), 1, rows}, 0);
        }
        if (rnd.nextBoolean()) {
            return sliced;
        }
        // rank 2: the last batch of the slice (row stride larger than the row when padded)
        return Tensor.of(buffer, t, new long[] {rows, cols}, new long[] {sliced.stride(1), sliced.stride(2)},
                sliced.offset() + (batch - 1) * sliced.stride(0));
    }

    private static MemorySegment randomBuffer(Random rnd, Arena arena, long bytes) {
        MemorySegment seg = arena.allocate(bytes, 64);
        for (long i = 0; i < bytes; i++) {
            seg.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
        }
        return seg;
    }

    private static DType tileType(Random rnd, DType tensor) {
        DType[] all = DType.values();
        return rnd.nextInt(4) == 0 ? all[rnd.nextInt(all.length)] : tensor;
    }

    private static long[] offsets(Tensor v, Random rnd, int rows, int cols) {
        long[] o = new long[v.rank()];
        o[v.rank() - 2] = rnd.nextInt((int) v.shape(v.rank() - 2) - rows + 1);
        o[v.rank() - 1] = rnd.nextInt((int) v.shape(v.rank() - 1) - cols + 1);
        if (v.rank() == 3) {
            o[0] = rnd.nextInt((int) v.shape(0));
        }
        return o;
    }

    @Property(tries = 150)
    void loadIsBitExact(@ForAll DType t, @ForAll @IntRange(min = 1, max = 12) int rows,
                        @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = randomBuffer(rnd, arena, 2L * (rows + 4) * (cols + 4) * t.byteSize());
            Tensor v = view(rnd, buf, t, rows + 1, cols + 1);
            int r = 1 + rnd.nextInt(rows);
            int c = 1 + rnd.nextInt(cols);
            long[] off = offsets(v, rnd, r, c);
            Tile dst = random(rnd, tileType(rnd, t), rows, cols, 1, 1, true);
            Tile a = RandomTiles.copyOf(dst);
            Tile b = RandomTiles.copyOf(dst);
            VECTOR.load(a, v, off, r, c);
            SCALAR.load(b, v, off, r, c);
            assertSame("load " + v + " → " + dst.dtype(), a, b);

            Tile index = Tile.allocate(DType.INT32, r, 1);
            long available = v.shape(v.rank() - 2) - off[v.rank() - 2];
            for (int i = 0; i < r; i++) {
                index.setLong(i, 0, rnd.nextInt((int) available));
            }
            Tile ga = RandomTiles.copyOf(dst);
            Tile gb = RandomTiles.copyOf(dst);
            VECTOR.loadRows(ga, v, index, off, c);
            SCALAR.loadRows(gb, v, index, off, c);
            assertSame("load_rows " + v + " → " + dst.dtype(), ga, gb);
        }
    }

    @Property(tries = 150)
    void storeIsBitExact(@ForAll DType t, @ForAll @IntRange(min = 1, max = 12) int rows,
                         @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long bytes = 2L * (rows + 4) * (cols + 4) * t.byteSize();
            MemorySegment bufV = randomBuffer(rnd, arena, bytes);
            MemorySegment bufS = arena.allocate(bytes, 64);
            MemorySegment.copy(bufV, 0, bufS, 0, bytes);
            long viewSeed = rnd.nextLong();
            Tensor vv = view(new Random(viewSeed), bufV, t, rows, cols);
            Tensor vs = view(new Random(viewSeed), bufS, t, rows, cols);
            Tile src = random(rnd, tileType(rnd, t), 1 + rnd.nextInt(rows), 1 + rnd.nextInt(cols), 1, 2, true);
            long[] off = offsets(vv, rnd, src.validRows(), src.validCols());
            VECTOR.store(src, vv, off);
            SCALAR.store(src, vs, off.clone());
            assertThat(bufV.mismatch(bufS)).as("store " + src.describe() + " → " + vv + " first differing byte")
                    .isEqualTo(-1L);
        }
    }
}
