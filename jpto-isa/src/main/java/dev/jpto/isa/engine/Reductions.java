package dev.jpto.isa.engine;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.simd.FloatLanes;
import dev.jpto.isa.engine.simd.FloatRows;
import dev.jpto.isa.engine.simd.IntLanes;
import dev.jpto.isa.engine.simd.Workspace;
import dev.jpto.isa.op.Fn;

/**
 * Vectorized reductions of the {@link VectorEngine}. Along columns, whole rows are combined lane-wise in row
 * order, which is the scalar engine's order per column (exact). Along rows and over the tile, each row is
 * reduced with one partial result per lane: exact for max/min, reassociated for float sums (see VectorEngine).
 */
final class Reductions {
    private Reductions() {
    }

    static void floats(Fn.Reduce fn, Fn.Axis axis, Tile dst, Tile src) {
        int rows = src.validRows();
        int cols = src.validCols();
        Workspace w = Workspace.forRows(cols);
        float identity = switch (fn) {
            case SUM -> 0.0f;
            case MAX -> Float.NEGATIVE_INFINITY;
            case MIN -> Float.POSITIVE_INFINITY;
        };
        switch (axis) {
            case ROWS -> {
                for (int r = 0; r < rows; r++) {
                    FloatRows.read(src, r, cols, w.fa);
                    dst.setFloat(r, 0, combine(fn, identity, FloatLanes.reduce(fn, w.fa, cols)));
                }
                dst.setValid(rows, 1);
            }
            case COLS -> {
                java.util.Arrays.fill(w.fc, 0, cols, identity);
                for (int r = 0; r < rows; r++) {
                    FloatRows.read(src, r, cols, w.fa);
                    FloatLanes.accumulate(fn, w.fc, w.fa, cols);
                }
                FloatRows.write(dst, 0, cols, w.fc);
                dst.setValid(1, cols);
            }
            case ALL -> {
                float acc = identity;
                for (int r = 0; r < rows; r++) {
                    FloatRows.read(src, r, cols, w.fa);
                    acc = combine(fn, acc, FloatLanes.reduce(fn, w.fa, cols));
                }
                dst.setFloat(0, 0, acc);
                dst.setValid(1, 1);
            }
        }
    }

    /** The scalar rule starts from the identity: 0 + (-0.0) is +0.0, so the identity is applied, not skipped. */
    private static float combine(Fn.Reduce fn, float acc, float x) {
        return switch (fn) {
            case SUM -> acc + x;
            case MAX -> Math.max(acc, x);
            case MIN -> Math.min(acc, x);
        };
    }

    static void ints(Fn.Reduce fn, Fn.Axis axis, Tile dst, Tile src) {
        int rows = src.validRows();
        int cols = src.validCols();
        Workspace w = Workspace.forRows(cols);
        DType t = src.dtype();
        int identity = switch (fn) {
            case SUM -> 0;
            case MAX -> (int) t.minValue();
            case MIN -> (int) t.maxValue();
        };
        switch (axis) {
            case ROWS -> {
                for (int r = 0; r < rows; r++) {
                    IntLanes.read(src, r, cols, w.ia);
                    dst.setLong(r, 0, Elementwise.wrap(t, IntLanes.reduce(fn, w.ia, cols, identity)));
                }
                dst.setValid(rows, 1);
            }
            case COLS -> {
                java.util.Arrays.fill(w.ic, 0, cols, identity);
                for (int r = 0; r < rows; r++) {
                    IntLanes.read(src, r, cols, w.ia);
                    IntLanes.accumulate(fn, w.ic, w.ia, cols);
                }
                IntLanes.write(dst, 0, cols, w.ic);
                dst.setValid(1, cols);
            }
            case ALL -> {
                int acc = identity;
                for (int r = 0; r < rows; r++) {
                    IntLanes.read(src, r, cols, w.ia);
                    int x = IntLanes.reduce(fn, w.ia, cols, identity);
                    acc = switch (fn) {
                        case SUM -> acc + x;
                        case MAX -> Math.max(acc, x);
                        case MIN -> Math.min(acc, x);
                    };
                }
                dst.setLong(0, 0, Elementwise.wrap(t, acc));
                dst.setValid(1, 1);
            }
        }
    }
}
