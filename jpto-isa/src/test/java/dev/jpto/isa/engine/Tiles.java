package dev.jpto.isa.engine;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;

/** Test helpers: build tiles from row-major values and read valid regions back. */
final class Tiles {
    private Tiles() {
    }

    /** A rows×cols tile holding {@code values} row-major (stored with the dtype's rounding). */
    static Tile of(DType t, int rows, int cols, double... values) {
        if (values.length != rows * cols) {
            throw new IllegalArgumentException(values.length + " values for " + rows + "x" + cols);
        }
        Tile tile = Tile.allocate(t, rows, cols);
        for (int i = 0; i < values.length; i++) {
            t.storeDouble(tile.data(), tile.byteOffset(i / cols, i % cols), values[i]);
        }
        return tile;
    }

    /** The valid region, row-major, as doubles. */
    static double[] values(Tile t) {
        double[] out = new double[t.validRows() * t.validCols()];
        for (int r = 0; r < t.validRows(); r++) {
            for (int c = 0; c < t.validCols(); c++) {
                out[r * t.validCols() + c] = t.dtype().loadDouble(t.data(), t.byteOffset(r, c));
            }
        }
        return out;
    }

    static int[] region(Tile t) {
        return new int[] {t.validRows(), t.validCols()};
    }
}
