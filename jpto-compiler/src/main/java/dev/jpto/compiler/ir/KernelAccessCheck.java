package dev.jpto.compiler.ir;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.Mnemonics;
import dev.jpto.isa.kernel.TileDecl;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.TileOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks, for one submit, that the kernel's loads and stores stay inside the tensors it is given. Scalar
 * registers are bounded by intervals: scalar parameters by the submit's arguments (loop-dependent ones over
 * their loop ranges), loop variables by their loop bounds; an access is reported when some register values in
 * those ranges would leave the argument's shape.
 *
 * <p>Stores are checked with the stored tile's full shape, except in kernels that load partial regions
 * (a valid region smaller than the tile, or gathered rows), whose stored extent is not known statically.
 */
final class KernelAccessCheck {
    /** Inclusive bounds of a scalar register; null = unknown (a float argument). */
    record Range(long lo, long hi) {
    }

    private final Kernel kernel;
    private final long[][] shapes;
    private final Range[] regs;
    private final boolean storesKnown;
    private final List<String> findings = new ArrayList<>();

    private KernelAccessCheck(Kernel kernel, long[][] shapes, Range[] params) {
        this.kernel = kernel;
        this.shapes = shapes;
        this.regs = Arrays.copyOf(params, kernel.scalars().size());
        this.storesKnown = !partialLoads(kernel.body());
    }

    /**
     * Findings for {@code kernel} run on tensors of {@code shapes} (null where unknown) with scalar parameters in
     * {@code params} (null where unknown), each naming the op and the tensor.
     */
    static List<String> check(Kernel kernel, long[][] shapes, Range[] params) {
        KernelAccessCheck c = new KernelAccessCheck(kernel, shapes, params);
        c.ops(kernel.body(), "");
        return c.findings;
    }

    private void ops(List<TileOp> ops, String prefix) {
        for (int i = 0; i < ops.size(); i++) {
            TileOp op = ops.get(i);
            String where = "op #" + prefix + i + " (" + Mnemonics.of(op) + ")";
            switch (op) {
                case TileOp.Load l -> access(where, "reads", l.tensor(), l.offsets(),
                        range(l.validRows()), range(l.validCols()));
                case TileOp.LoadRows l -> access(where, "reads", l.tensor(), l.offsets(), null, range(l.validCols()));
                case TileOp.Store s -> {
                    if (storesKnown) {
                        TileDecl t = kernel.tiles().get(s.src());
                        access(where, "writes", s.tensor(), s.offsets(), new Range(t.rows(), t.rows()),
                                new Range(t.cols(), t.cols()));
                    }
                }
                case TileOp.Loop loop -> {
                    Range start = range(loop.start());
                    Range end = range(loop.end());
                    regs[loop.slot()] = start == null || end == null ? null : loopRange(start, end, loop.step());
                    ops(loop.body(), prefix + i + ".");
                }
                default -> { }
            }
        }
    }

    /** Extents: rows/cols of the last two dimensions (null = not checked); 1 for the leading dimensions. */
    private void access(String where, String verb, int tensor, List<Idx> offsets, Range rows, Range cols) {
        long[] shape = shapes[tensor];
        if (shape == null || offsets.size() != shape.length) {
            return;
        }
        int rank = shape.length;
        for (int d = 0; d < rank; d++) {
            Range off = range(offsets.get(d));
            Range ext = d == rank - 2 ? rows : d == rank - 1 ? cols : new Range(1, 1);
            if (off == null || ext == null) {
                continue;
            }
            if (off.lo() < 0 || off.hi() + ext.hi() > shape[d]) {
                findings.add("kernel " + kernel.name() + " " + where + " " + verb + " "
                        + kernel.tensors().get(tensor).name() + " at offset '" + text(offsets.get(d)) + "' in dimension " + d + ", which ranges over [" + off.lo()
                        + ", " + off.hi() + "], with extent " + ext.hi() + ": leaves [0, " + shape[d]
                        + ") of the argument's shape " + Arrays.toString(shape));
            }
        }
    }

    /** Values start, start+step, … below end; with a fixed start the last one is a multiple of step away. */
    private static Range loopRange(Range start, Range end, long step) {
        long last = end.hi() - 1;
        if (start.lo() == start.hi() && last >= start.lo()) {
            last = start.lo() + (last - start.lo()) / step * step;
        }
        return new Range(start.lo(), Math.max(start.lo(), last));
    }

    /** "row0 + 32*h": an index with the kernel's register names. */
    private String text(Idx idx) {
        StringBuilder sb = new StringBuilder();
        int[] slots = idx.slots();
        long[] coeffs = idx.coeffs();
        for (int k = 0; k < slots.length; k++) {
            long c = coeffs[k];
            sb.append(sb.isEmpty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + "));
            if (Math.abs(c) != 1) {
                sb.append(Math.abs(c)).append('*');
            }
            sb.append(kernel.scalars().get(slots[k]).name());
        }
        if (sb.isEmpty()) {
            return Long.toString(idx.constant());
        }
        if (idx.constant() != 0) {
            sb.append(idx.constant() < 0 ? " - " : " + ").append(Math.abs(idx.constant()));
        }
        return sb.toString();
    }

    private Range range(Idx idx) {
        long lo = idx.constant();
        long hi = idx.constant();
        int[] slots = idx.slots();
        long[] coeffs = idx.coeffs();
        for (int k = 0; k < slots.length; k++) {
            Range r = slots[k] < regs.length ? regs[slots[k]] : null;
            if (r == null) {
                return null;
            }
            long a = Math.multiplyExact(coeffs[k], r.lo());
            long b = Math.multiplyExact(coeffs[k], r.hi());
            lo = Math.addExact(lo, Math.min(a, b));
            hi = Math.addExact(hi, Math.max(a, b));
        }
        return new Range(lo, hi);
    }

    private boolean partialLoads(List<TileOp> ops) {
        for (TileOp op : ops) {
            boolean partial = switch (op) {
                case TileOp.Load l -> {
                    TileDecl t = kernel.tiles().get(l.dst());
                    yield !l.validRows().equals(Idx.of(t.rows())) || !l.validCols().equals(Idx.of(t.cols()));
                }
                case TileOp.LoadRows l -> true;
                case TileOp.Loop loop -> partialLoads(loop.body());
                default -> false;
            };
            if (partial) {
                return true;
            }
        }
        return false;
    }
}
