package dev.jpto.isa.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Load and store over random views (slices, strided and reversed views, every dtype, ranks 1–4), checked
 * element by element through {@link Tensor#byteOffset(long...)}: an addressing path independent of the engine.
 */
class LoadStoreViewsTest {
    private final TileEngine e = new ScalarEngine();

    @Property(tries = 200)
    void loadThenStoreMovesExactlyTheRegion(@ForAll long seed) {
        Random r = new Random(seed);
        Arena arena = Arena.ofAuto();
        DType t = DType.values()[r.nextInt(DType.values().length)];
        int rank = 1 + r.nextInt(4);
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = 1 + r.nextInt(9);
        }
        Tensor view = randomView(r, arena, t, shape);
        for (long i = 0; i < view.numel(); i++) {
            view.setDouble(i, (i * 7 + 3) % 100 - 50);
        }
        long[] offsets = new long[rank];
        for (int d = 0; d < rank; d++) {
            offsets[d] = r.nextInt((int) shape[d]);
        }
        int rows = rank == 1 ? 1 : r.nextInt((int) (shape[rank - 2] - offsets[rank - 2]) + 1);
        int cols = r.nextInt((int) (shape[rank - 1] - offsets[rank - 1]) + 1);
        Tile tile = Tile.allocate(t, Math.max(1, rows + r.nextInt(3)), Math.max(1, cols + r.nextInt(3)));
        e.load(tile, view, offsets, rows, cols);
        assertThat(tile.validRows()).isEqualTo(rows);
        assertThat(tile.validCols()).isEqualTo(cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                long[] at = at(offsets, i, j);
                assertThat(tile.dtype().loadDouble(tile.data(), tile.byteOffset(i, j)))
                        .as("tile[%d][%d] vs view%s", i, j, Arrays.toString(at))
                        .isEqualTo(t.loadDouble(view.buffer(), view.byteOffset(at)));
            }
        }
        Tensor out = randomView(r, arena, t, shape);
        e.store(tile, out, offsets);
        long[] idx = new long[rank];
        for (long flat = 0; flat < out.numel(); flat++) {
            long rem = flat;
            for (int d = rank - 1; d >= 0; d--) {
                idx[d] = rem % shape[d];
                rem /= shape[d];
            }
            boolean inside = true;
            for (int d = 0; d < rank; d++) {
                long lo = offsets[d];
                long extent = d == rank - 1 ? cols : d == rank - 2 ? rows : 1;
                inside &= idx[d] >= lo && idx[d] < lo + extent;
            }
            double want = inside ? t.loadDouble(view.buffer(), view.byteOffset(idx)) : 0;
            assertThat(t.loadDouble(out.buffer(), out.byteOffset(idx))).as("out%s", Arrays.toString(idx)).isEqualTo(want);
        }
    }

    private static long[] at(long[] offsets, int i, int j) {
        long[] at = offsets.clone();
        int rank = at.length;
        at[rank - 1] += j;
        if (rank >= 2) {
            at[rank - 2] += i;
        }
        return at;
    }

    /** A zeroed view of {@code shape}: contiguous, a slice of a bigger tensor, strided, or reversed in one dim. */
    private static Tensor randomView(Random r, Arena arena, DType t, long[] shape) {
        int rank = shape.length;
        switch (r.nextInt(4)) {
            case 0 -> {
                return Tensor.allocate(arena, t, shape);
            }
            case 1 -> {
                long[] big = new long[rank];
                long[] starts = new long[rank];
                for (int d = 0; d < rank; d++) {
                    starts[d] = r.nextInt(3);
                    big[d] = shape[d] + starts[d] + r.nextInt(3);
                }
                return Tensor.allocate(arena, t, big).slice(starts, shape);
            }
            case 2 -> {
                long[] strides = new long[rank];
                long acc = 1 + r.nextInt(3); // gaps between elements of the last dimension
                for (int d = rank - 1; d >= 0; d--) {
                    strides[d] = acc;
                    acc *= shape[d] + r.nextInt(2);
                }
                long need = 1;
                for (int d = 0; d < rank; d++) {
                    need += (shape[d] - 1) * strides[d];
                }
                return Tensor.of(arena.allocate(need * t.byteSize()), t, shape, strides, 0);
            }
            default -> {
                long[] strides = Tensor.contiguousStrides(shape);
                int flip = r.nextInt(rank);
                long offset = (shape[flip] - 1) * strides[flip];
                strides[flip] = -strides[flip];
                return Tensor.of(arena.allocate(Tensor.numel(shape) * t.byteSize()), t, shape, strides, offset);
            }
        }
    }
}
