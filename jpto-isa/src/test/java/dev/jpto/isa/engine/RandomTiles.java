package dev.jpto.isa.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/** Random tiles for the engine agreement tests, and the two ways results are compared. */
final class RandomTiles {
    /** Float values that exercise the IEEE corners (no MAX_VALUE: sums of it overflow order-dependently). */
    private static final float[] SPECIAL = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0.0f, -0.0f,
        Float.MIN_VALUE, -1e-40f, 65504f, 1.0f, -1.0f, 0.5f};

    private RandomTiles() {
    }

    /**
     * A tile of capacity {@code (rows+extraRows) × (cols+extraCols)} with valid region {@code rows × cols}; every
     * element (inside the region or not) is random, so writes outside the region would show.
     */
    static Tile random(Random rnd, DType t, int rows, int cols, int extraRows, int extraCols, boolean specials) {
        Tile tile = Tile.allocate(t, rows + extraRows, cols + extraCols);
        for (int r = 0; r < tile.rows(); r++) {
            for (int c = 0; c < tile.cols(); c++) {
                put(rnd, tile, r, c, specials);
            }
        }
        tile.setValid(rows, cols);
        return tile;
    }

    static void put(Random rnd, Tile tile, int r, int c, boolean specials) {
        DType t = tile.dtype();
        if (t.isFloat()) {
            float v = specials && rnd.nextInt(12) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)]
                    : (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3));
            tile.setFloat(r, c, v);
        } else if (t == DType.BOOL) {
            // masks: mostly 0/1, sometimes another non-zero byte (which also selects a)
            int v = rnd.nextInt(10) == 0 ? 0x80 : rnd.nextInt(2);
            tile.data().set(ValueLayout.JAVA_BYTE, tile.byteOffset(r, c), (byte) v);
        } else {
            long v = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(201) - 100;
            long span = t.maxValue() - t.minValue();
            long wrapped = t == DType.INT64 ? v : t.minValue() + Math.floorMod(v, span + 1);
            tile.setLong(r, c, wrapped);
        }
    }

    /** A copy of a tile: same capacity, bytes and valid region. */
    static Tile copyOf(Tile t) {
        Tile c = Tile.allocate(t.dtype(), t.rows(), t.cols());
        MemorySegment.copy(t.data(), 0, c.data(), 0, t.data().byteSize());
        c.setValid(t.validRows(), t.validCols());
        return c;
    }

    /** Bit-identical tiles: the same valid region and the same bytes everywhere (inside the region or not). */
    static void assertSame(String what, Tile vector, Tile scalar) {
        assertThat(vector.validRows()).as(what + " valid rows").isEqualTo(scalar.validRows());
        assertThat(vector.validCols()).as(what + " valid cols").isEqualTo(scalar.validCols());
        long mismatch = vector.data().mismatch(scalar.data());
        if (mismatch >= 0) {
            long element = mismatch / vector.dtype().byteSize();
            int r = (int) (element / vector.cols());
            int c = (int) (element % vector.cols());
            fail(what + ": " + vector.describe() + " differs at (" + r + ", " + c + "): vector="
                    + vector.dtype().loadDouble(vector.data(), vector.byteOffset(r, c)) + " scalar="
                    + scalar.dtype().loadDouble(scalar.data(), scalar.byteOffset(r, c)));
        }
    }

    /**
     * Equal valid regions, equal bytes outside them, and inside every element within {@code ulps} units in the
     * last place of the tile's dtype (NaN only matches NaN; infinities must match exactly).
     */
    static void assertWithinUlps(String what, Tile vector, Tile scalar, int ulps) {
        assertThat(vector.validRows()).as(what + " valid rows").isEqualTo(scalar.validRows());
        assertThat(vector.validCols()).as(what + " valid cols").isEqualTo(scalar.validCols());
        for (int r = 0; r < vector.rows(); r++) {
            for (int c = 0; c < vector.cols(); c++) {
                float v = vector.getFloat(r, c);
                float s = scalar.getFloat(r, c);
                boolean inside = r < vector.validRows() && c < vector.validCols();
                long d = ulpDistance(vector.dtype(), v, s);
                if (inside ? d > ulps : d != 0) {
                    fail(what + ": " + vector.describe() + " at (" + r + ", " + c + "): vector=" + v + " scalar=" + s
                            + " differ by " + d + " ulp (bound " + (inside ? ulps : 0) + ")");
                }
            }
        }
    }

    /** Distance in units in the last place of {@code t} between two values of that dtype. */
    static long ulpDistance(DType t, float x, float y) {
        if (Float.isNaN(x) || Float.isNaN(y)) {
            return Float.isNaN(x) && Float.isNaN(y) ? 0 : Long.MAX_VALUE;
        }
        if (Float.isInfinite(x) || Float.isInfinite(y)) {
            return x == y ? 0 : Long.MAX_VALUE;
        }
        return Math.abs(ordinal(t, x) - ordinal(t, y));
    }

    /** Position of a value on the dtype's number line (adjacent values differ by 1; ±0 both map to 0). */
    private static long ordinal(DType t, float x) {
        int bits;
        int width;
        switch (t) {
            case BF16 -> {
                bits = DType.floatToBf16(x) & 0xFFFF;
                width = 16;
            }
            case FP16 -> {
                bits = Float.floatToFloat16(x) & 0xFFFF;
                width = 16;
            }
            default -> {
                bits = Float.floatToRawIntBits(x);
                width = 32;
            }
        }
        long sign = 1L << (width - 1);
        long magnitude = (bits & 0xFFFFFFFFL) & (sign - 1);
        return (bits & sign) != 0 ? -magnitude : magnitude;
    }
}
