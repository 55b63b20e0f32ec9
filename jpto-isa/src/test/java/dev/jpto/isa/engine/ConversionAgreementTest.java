package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.RandomTiles.assertSame;
import static dev.jpto.isa.engine.RandomTiles.random;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The vector engine's converting paths against the scalar engine, bit for bit: loads and stores between float
 * dtypes over contiguous rows (random bit patterns, so NaN payloads, infinities, denormals and halfway cases of
 * the bf16/fp16 rounding all occur), and casts from integer tiles to fp32 and to other integer types.
 */
class ConversionAgreementTest {
    private static final TileEngine VECTOR = new VectorEngine();
    private static final TileEngine SCALAR = new ScalarEngine();

    @Provide
    Arbitrary<DType> floats() {
        return Arbitraries.of(DType.FP32, DType.BF16, DType.FP16);
    }

    @Provide
    Arbitrary<DType> ints() {
        return Arbitraries.of(DType.INT8, DType.UINT8, DType.INT16, DType.INT32);
    }

    private static MemorySegment randomBits(Random rnd, Arena arena, long bytes) {
        MemorySegment seg = arena.allocate(bytes, 64);
        for (long i = 0; i < bytes; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
        }
        return seg;
    }

    /** A rows × cols region of a padded rank-2 tensor (row stride > cols when padded); last stride 1. */
    private static Tensor padded(MemorySegment buf, DType t, int rows, int cols, int pad) {
        return Tensor.of(buf, t, new long[] {rows, cols}, new long[] {cols + pad, 1}, pad);
    }

    @Property(tries = 300)
    void floatConvertingLoadIsBitExact(@ForAll("floats") DType tensor, @ForAll("floats") DType tile,
                                       @ForAll @IntRange(min = 1, max = 6) int rows,
                                       @ForAll @IntRange(min = 1, max = 100) int cols,
                                       @ForAll @IntRange(min = 0, max = 3) int pad, @ForAll long seed) {
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = randomBits(rnd, arena, (long) (rows + 1) * (cols + pad) * tensor.byteSize());
            Tensor v = padded(buf, tensor, rows, cols, pad);
            int r = 1 + rnd.nextInt(rows);
            int c = 1 + rnd.nextInt(cols);
            long[] off = {rnd.nextInt(rows - r + 1), rnd.nextInt(cols - c + 1)};
            Tile dst = random(rnd, tile, rows, cols, 1, 1, true);
            Tile a = RandomTiles.copyOf(dst);
            Tile b = RandomTiles.copyOf(dst);
            VECTOR.load(a, v, off, r, c);
            SCALAR.load(b, v, off, r, c);
            assertSame("load " + v + " → " + tile, a, b);
        }
    }

    @Property(tries = 300)
    void floatConvertingStoreIsBitExact(@ForAll("floats") DType tile, @ForAll("floats") DType tensor,
                                        @ForAll @IntRange(min = 1, max = 6) int rows,
                                        @ForAll @IntRange(min = 1, max = 100) int cols,
                                        @ForAll @IntRange(min = 0, max = 3) int pad, @ForAll long seed) {
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long bytes = (long) (rows + 1) * (cols + pad) * tensor.byteSize();
            MemorySegment bufV = randomBits(rnd, arena, bytes);
            MemorySegment bufS = arena.allocate(bytes, 64);
            MemorySegment.copy(bufV, 0, bufS, 0, bytes);
            Tile src = random(rnd, tile, 1 + rnd.nextInt(rows), 1 + rnd.nextInt(cols), 1, 2, true);
            // random bits in the tile too: every NaN payload and denormal the dtype has
            for (int i = 0; i < src.rows(); i++) {
                for (int j = 0; j < src.cols(); j += 1 + rnd.nextInt(3)) {
                    for (int k = 0; k < tile.byteSize(); k++) {
                        src.data().set(ValueLayout.JAVA_BYTE, src.byteOffset(i, j) + k, (byte) rnd.nextInt());
                    }
                }
            }
            long[] off = {rnd.nextInt(rows - src.validRows() + 1), rnd.nextInt(cols - src.validCols() + 1)};
            VECTOR.store(src, padded(bufV, tensor, rows, cols, pad), off);
            SCALAR.store(src, padded(bufS, tensor, rows, cols, pad), off.clone());
            assertThat(bufV.mismatch(bufS)).as("store " + src.describe() + " → " + tensor + " first differing byte")
                    .isEqualTo(-1L);
        }
    }

    @Property(tries = 300)
    void integerCastsAreBitExact(@ForAll("ints") DType from, @ForAll DType to, @ForAll RoundingMode mode,
                                 @ForAll @IntRange(min = 1, max = 100) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile src = random(rnd, from, 3, cols, 0, 2, true);
        if (from == DType.INT32) { // the int32 extremes, where int → fp32 rounds
            src.setLong(0, 0, Integer.MAX_VALUE);
            src.setLong(1, 0, Integer.MIN_VALUE);
            src.setLong(2, 0, (1 << 24) + 1);
        }
        Tile dv = random(rnd, to, 3, cols, 1, 1, true);
        Tile ds = RandomTiles.copyOf(dv);
        VECTOR.cast(dv, src, mode);
        SCALAR.cast(ds, src, mode);
        assertSame("cast " + from + "→" + to + " " + mode, dv, ds);
    }
}
