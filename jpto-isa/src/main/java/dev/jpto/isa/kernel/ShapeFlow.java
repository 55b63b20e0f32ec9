package dev.jpto.isa.kernel;

import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.TileOp;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The shape rules of {@code engine.OpChecks}, checked before the kernel runs: follows each tile's valid region
 * through the op stream and reports an operand whose region certainly breaks its op's rule (a mismatched
 * elementwise operand, a matmul whose inner dimensions differ, a destination too small for the result, ...).
 *
 * <p>Each dimension of a valid region is either known or unknown (after a load whose extent is a scalar
 * expression); a rule is reported only when every extent it compares is known, so a kernel the engines accept
 * is never rejected. Every execution starts with each tile's region at its full shape (the executor resets
 * it). A loop body is analysed from the region each tile has on every entry to the body: the state before the
 * loop merged with the state after the body (known only where both agree), iterated until it no longer
 * changes; only that final pass reports, and the state after the loop is the same merge (zero or more
 * iterations).
 */
final class ShapeFlow {
    private static final int UNKNOWN = -1;

    private final Kernel k;
    private final Function<? super TileOp, String> sourceLine;
    private int[] rows;
    private int[] cols;
    private boolean report = true;
    private String where;

    private ShapeFlow(Kernel k, Function<? super TileOp, String> sourceLine) {
        this.k = k;
        this.sourceLine = sourceLine;
        int n = k.tiles().size();
        rows = new int[n];
        cols = new int[n];
        for (int t = 0; t < n; t++) {
            rows[t] = k.tiles().get(t).rows();
            cols[t] = k.tiles().get(t).cols();
        }
    }

    /** Throws {@link IllegalArgumentException} on the first certain violation; operands are already valid. */
    static void check(Kernel k, Function<? super TileOp, String> sourceLine) {
        new ShapeFlow(k, sourceLine).ops(k.body(), "");
    }

    private void ops(List<TileOp> ops, String prefix) {
        for (int i = 0; i < ops.size(); i++) {
            TileOp op = ops.get(i);
            if (report) {
                where = Kernels.where(k, prefix + i, op, sourceLine);
            }
            if (op instanceof TileOp.Loop loop) {
                loop(loop, prefix + i + ".");
            } else {
                op(op);
            }
        }
    }

    private void loop(TileOp.Loop loop, String prefix) {
        int[] beforeRows = rows.clone();
        int[] beforeCols = cols.clone();
        int[] entryRows = beforeRows;
        int[] entryCols = beforeCols;
        boolean outer = report;
        report = false;
        while (true) {
            rows = entryRows.clone();
            cols = entryCols.clone();
            ops(loop.body(), prefix);
            int[] nextRows = merge(beforeRows, rows);
            int[] nextCols = merge(beforeCols, cols);
            if (Arrays.equals(nextRows, entryRows) && Arrays.equals(nextCols, entryCols)) {
                break; // each pass only forgets extents, so this ends within one pass per extent
            }
            entryRows = nextRows;
            entryCols = nextCols;
        }
        report = outer;
        rows = entryRows.clone();
        cols = entryCols.clone();
        ops(loop.body(), prefix);
        rows = entryRows;
        cols = entryCols;
    }

    private static int[] merge(int[] a, int[] b) {
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] == b[i] ? a[i] : UNKNOWN;
        }
        return out;
    }

    private void op(TileOp op) {
        switch (op) {
            case TileOp.Load l -> set(l.dst(), extent(l.validRows()), extent(l.validCols()));
            case TileOp.LoadRows l -> {
                if (cols[l.index()] == 0) {
                    fail("index", l.index(), "must have a column of row numbers");
                }
                result("dst", l.dst(), rows[l.index()], extent(l.validCols()));
            }
            case TileOp.Store _, TileOp.Fill _, TileOp.Iota _ -> {
                // stores read the region; fill and iota write the destination's current region
            }
            case TileOp.Copy c -> result("dst", c.dst(), rows[c.src()], cols[c.src()]);
            case TileOp.Binary b -> {
                same("b", b.b(), "a", b.a());
                like("dst", b.dst(), b.a());
            }
            case TileOp.BinaryScalar b -> like("dst", b.dst(), b.a());
            case TileOp.Unary u -> like("dst", u.dst(), u.src());
            case TileOp.RowBroadcast b -> {
                expect("b", b.b(), rows[b.a()], 1, "one value per row of a " + describe(b.a()));
                like("dst", b.dst(), b.a());
            }
            case TileOp.ColBroadcast b -> {
                expect("b", b.b(), 1, cols[b.a()], "one value per column of a " + describe(b.a()));
                like("dst", b.dst(), b.a());
            }
            case TileOp.Reduce r -> {
                switch (r.axis()) {
                    case ROWS -> result("dst", r.dst(), rows[r.src()], 1);
                    case COLS -> result("dst", r.dst(), 1, cols[r.src()]);
                    case ALL -> result("dst", r.dst(), 1, 1);
                }
            }
            case TileOp.MatMul m -> matmul(m);
            case TileOp.Cast c -> like("dst", c.dst(), c.src());
            case TileOp.Transpose t -> result("dst", t.dst(), cols[t.src()], rows[t.src()]);
            case TileOp.Compare c -> {
                same("b", c.b(), "a", c.a());
                like("dst", c.dst(), c.a());
            }
            case TileOp.CompareScalar c -> like("dst", c.dst(), c.a());
            case TileOp.Select s -> {
                same("mask", s.mask(), "a", s.a());
                same("b", s.b(), "a", s.a());
                like("dst", s.dst(), s.a());
            }
            case TileOp.GatherRows g -> {
                if (cols[g.index()] == 0) {
                    fail("index", g.index(), "must have a column of row numbers");
                }
                result("dst", g.dst(), rows[g.index()], cols[g.src()]);
            }
            case TileOp.TopK t -> {
                int c = cols[t.src()];
                if (c != UNKNOWN && t.k() > c) {
                    fail("src", t.src(), "has " + c + " valid columns, fewer than k=" + t.k());
                }
                result("values", t.values(), rows[t.src()], t.k());
                result("indices", t.indices(), rows[t.src()], t.k());
            }
            case TileOp.CumSum c -> like("dst", c.dst(), c.src());
            case TileOp.Quantize q -> {
                int r = rows[q.src()];
                int c = cols[q.src()];
                result("q", q.q(), r, c);
                result("scale", q.scale(), r, 1);
            }
            case TileOp.Dequantize d -> {
                expect("scale", d.scale(), rows[d.q()], 1, "one scale per row of q " + describe(d.q()));
                like("dst", d.dst(), d.q());
            }
            case TileOp.Loop _ -> throw new IllegalStateException("loops are handled by ops()");
        }
    }

    /** A is M×K; B is K×N (N×K transposed); C becomes M×N and must hold it (equal it when accumulating). */
    private void matmul(TileOp.MatMul m) {
        int mm = rows[m.a()];
        int kk = cols[m.a()];
        int bk = m.transposeB() ? cols[m.b()] : rows[m.b()];
        int n = m.transposeB() ? rows[m.b()] : cols[m.b()];
        if (differ(bk, kk)) {
            String want = m.transposeB() ? "[*x" + kk + "] (cols = a's cols)" : "[" + kk + "x*] (rows = a's cols)";
            fail("b", m.b(), "must be " + want + " to match a " + describe(m.a()));
        }
        if (m.accumulate()) {
            expect("c", m.c(), mm, n, "the accumulator of a " + text(mm) + "x" + text(n) + " product");
        }
        result("c", m.c(), mm, n);
    }

    // ---- rules ----

    /** {@code dst} receives the region of {@code src}. */
    private void like(String operand, int dst, int src) {
        result(operand, dst, rows[src], cols[src]);
    }

    /** {@code dst} receives a {@code r × c} result: its capacity must hold it. */
    private void result(String operand, int dst, int r, int c) {
        TileDecl d = k.tiles().get(dst);
        if (r > d.rows() || c > d.cols()) {
            fail(operand, dst, "is too small for the " + text(r) + "x" + text(c) + " result");
        }
        set(dst, r, c);
    }

    private void same(String operand, int tile, String refName, int ref) {
        if (differ(rows[tile], rows[ref]) || differ(cols[tile], cols[ref])) {
            fail(operand, tile, "must be " + region(ref) + " to match " + refName + " " + describe(ref));
        }
    }

    private void expect(String operand, int tile, int r, int c, String why) {
        if (differ(rows[tile], r) || differ(cols[tile], c)) {
            fail(operand, tile, "must be " + text(r) + "x" + text(c) + " (" + why + ")");
        }
    }

    private static boolean differ(int a, int b) {
        return a != UNKNOWN && b != UNKNOWN && a != b;
    }

    private void set(int tile, int r, int c) {
        rows[tile] = r;
        cols[tile] = c;
    }

    private int extent(Idx idx) {
        return idx.isConstant() ? (int) idx.constant() : UNKNOWN;
    }

    // ---- messages ----

    private static String text(int extent) {
        return extent == UNKNOWN ? "*" : Integer.toString(extent);
    }

    private String region(int tile) {
        return text(rows[tile]) + "x" + text(cols[tile]);
    }

    /** "tile ta fp32[64x64]", or "tile ta fp32[64x64 valid 32x*]" when the valid region is smaller or unknown. */
    private String describe(int tile) {
        TileDecl d = k.tiles().get(tile);
        boolean full = rows[tile] == d.rows() && cols[tile] == d.cols();
        return "(tile " + d.name() + " " + d.dtype().text() + "[" + d.rows() + "x" + d.cols()
                + (full ? "" : " valid " + region(tile)) + "])";
    }

    private void fail(String operand, int tile, String rule) {
        if (report) {
            throw new IllegalArgumentException(where + ": operand " + operand + " " + describe(tile) + " " + rule);
        }
    }
}
