package dev.jpto.isa.kernel;

import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Prints a kernel as text (see {@link KernelText}). */
final class KernelPrinter {
    static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    static final Pattern KERNEL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]*");
    static final Set<String> RESERVED = Set.of("nan", "inf");

    private final Kernel k;
    private final StringBuilder out = new StringBuilder();

    KernelPrinter(Kernel k) {
        this.k = k;
    }

    String print() {
        checkNames();
        out.append("kernel ").append(k.name()).append('\n');
        for (TensorParam t : k.tensors()) {
            out.append("tensor ").append(t.name()).append(": ").append(t.dtype().text()).append(" rank ")
                    .append(t.rank()).append(' ').append(Mnemonics.lower(t.access())).append('\n');
        }
        for (ScalarDecl s : k.scalars()) {
            out.append(s.param() ? "scalar " : "var ").append(s.name()).append('\n');
        }
        for (TileDecl t : k.tiles()) {
            out.append("tile ").append(t.name()).append(": ").append(t.dtype().text()).append('[').append(t.rows())
                    .append('x').append(t.cols()).append("]\n");
        }
        out.append('\n');
        ops(k.body(), "");
        return out.toString();
    }

    private void checkNames() {
        if (!KERNEL_NAME.matcher(k.name()).matches()) {
            throw new IllegalArgumentException("kernel name '" + k.name()
                    + "' cannot be written as kernel text: use letters, digits, '_', '.', '-', not starting with a digit");
        }
        Set<String> seen = new HashSet<>();
        for (TensorParam t : k.tensors()) {
            name(t.name(), seen);
        }
        for (ScalarDecl s : k.scalars()) {
            name(s.name(), seen);
        }
        for (TileDecl t : k.tiles()) {
            name(t.name(), seen);
        }
    }

    private void name(String n, Set<String> seen) {
        if (!IDENT.matcher(n).matches() || RESERVED.contains(n)) {
            throw new IllegalArgumentException("kernel " + k.name() + ": name '" + n
                    + "' cannot be written as kernel text: names are identifiers [A-Za-z_][A-Za-z0-9_]* other than nan, inf");
        }
        if (!seen.add(n)) {
            throw new IllegalArgumentException("kernel " + k.name() + ": name '" + n
                    + "' is declared twice; kernel text needs unique names");
        }
    }

    private void ops(List<TileOp> ops, String indent) {
        for (TileOp op : ops) {
            out.append(indent).append(Mnemonics.of(op));
            switch (op) {
                case TileOp.Load l -> args(tile(l.dst()), tensorAt(l.tensor(), l.offsets()), idx(l.validRows()),
                        idx(l.validCols()));
                case TileOp.LoadRows l -> args(tile(l.dst()), tensorAt(l.tensor(), l.offsets()), tile(l.index()),
                        idx(l.validCols()));
                case TileOp.Store s -> args(tile(s.src()), tensorAt(s.tensor(), s.offsets()));
                case TileOp.Fill f -> args(tile(f.dst()), scalar(f.value()));
                case TileOp.Copy c -> args(tile(c.dst()), tile(c.src()));
                case TileOp.Binary b -> args(tile(b.dst()), tile(b.a()), tile(b.b()));
                case TileOp.BinaryScalar b -> args(tile(b.dst()), tile(b.a()), scalar(b.b()));
                case TileOp.Unary u -> args(tile(u.dst()), tile(u.src()));
                case TileOp.RowBroadcast b -> args(tile(b.dst()), tile(b.a()), tile(b.b()));
                case TileOp.ColBroadcast b -> args(tile(b.dst()), tile(b.a()), tile(b.b()));
                case TileOp.Reduce r -> args(tile(r.dst()), tile(r.src()));
                case TileOp.MatMul m -> args(tile(m.c()), tile(m.a()), tile(m.b()));
                case TileOp.Cast c -> args(tile(c.dst()), tile(c.src()), Mnemonics.lower(c.mode()));
                case TileOp.Transpose t -> args(tile(t.dst()), tile(t.src()));
                case TileOp.Compare c -> args(tile(c.dst()), tile(c.a()), tile(c.b()));
                case TileOp.CompareScalar c -> args(tile(c.dst()), tile(c.a()), scalar(c.b()));
                case TileOp.Select s -> args(tile(s.dst()), tile(s.mask()), tile(s.a()), tile(s.b()));
                case TileOp.GatherRows g -> args(tile(g.dst()), tile(g.src()), tile(g.index()));
                case TileOp.TopK t -> args(tile(t.values()), tile(t.indices()), tile(t.src()), Integer.toString(t.k()));
                case TileOp.CumSum c -> args(tile(c.dst()), tile(c.src()));
                case TileOp.Quantize q -> args(tile(q.q()), tile(q.scale()), tile(q.src()));
                case TileOp.Dequantize d -> args(tile(d.dst()), tile(d.q()), tile(d.scale()));
                case TileOp.Iota i -> args(tile(i.dst()), Mnemonics.lower(i.axis()), scalar(i.start()));
                case TileOp.Loop l -> {
                    out.append(' ').append(slot(l.slot())).append(" from ").append(idx(l.start())).append(" to ")
                            .append(idx(l.end())).append(" step ").append(l.step()).append(":\n");
                    ops(l.body(), indent + "  ");
                    continue;
                }
            }
            out.append('\n');
        }
    }

    private void args(String... args) {
        for (int i = 0; i < args.length; i++) {
            out.append(i == 0 ? " " : ", ").append(args[i]);
        }
    }

    private String tile(int i) {
        if (i < 0 || i >= k.tiles().size()) {
            throw new IllegalArgumentException("kernel " + k.name() + ": tile index " + i
                    + " is out of range (the kernel declares " + k.tiles().size() + " tiles)");
        }
        return k.tiles().get(i).name();
    }

    private String slot(int i) {
        if (i < 0 || i >= k.scalars().size()) {
            throw new IllegalArgumentException("kernel " + k.name() + ": scalar register " + i
                    + " is out of range (the kernel declares " + k.scalars().size() + " scalar registers)");
        }
        return k.scalars().get(i).name();
    }

    private String tensorAt(int t, List<Idx> offsets) {
        if (t < 0 || t >= k.tensors().size()) {
            throw new IllegalArgumentException("kernel " + k.name() + ": tensor index " + t
                    + " is out of range (the kernel declares " + k.tensors().size() + " tensor parameters)");
        }
        StringBuilder sb = new StringBuilder(k.tensors().get(t).name()).append('[');
        for (int i = 0; i < offsets.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(idx(offsets.get(i)));
        }
        return sb.append(']').toString();
    }

    /** {@code 64*i - j + 3}: the terms in record order, then the constant (omitted when 0 after terms). */
    String idx(Idx idx) {
        StringBuilder sb = new StringBuilder();
        int[] slots = idx.slots();
        long[] coeffs = idx.coeffs();
        for (int i = 0; i < slots.length; i++) {
            long c = coeffs[i];
            boolean neg = c < 0;
            String mag = Long.toUnsignedString(neg ? -c : c); // -MIN_VALUE wraps to MIN_VALUE = 2^63 unsigned
            sb.append(i == 0 ? (neg ? "-" : "") : (neg ? " - " : " + "));
            if (!mag.equals("1")) {
                sb.append(mag).append('*');
            }
            sb.append(slot(slots[i]));
        }
        long c = idx.constant();
        if (slots.length == 0) {
            sb.append(c);
        } else if (c != 0) {
            sb.append(c < 0 ? " - " : " + ").append(Long.toUnsignedString(c < 0 ? -c : c));
        }
        return sb.toString();
    }

    private String scalar(Scalar s) {
        return switch (s) {
            case Scalar.Imm(double v) -> number(v);
            case Scalar.Slot(int slot) -> slot(slot);
        };
    }

    static String number(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return Double.toString(v);
    }
}
