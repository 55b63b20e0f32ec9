package dev.jpto.isa.kernel;

import dev.jpto.isa.DType;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.util.List;
import java.util.function.Function;

/**
 * Static checks of a kernel, before it runs: every tile, tensor and scalar index in range, loop slots are
 * loop variables bound once and used only inside their loop, offsets match tensor ranks, the dtype rules of
 * each op hold, and the valid regions its operands certainly have fit the op ({@link ShapeFlow}). Errors name
 * the kernel, the op position ({@code #3} is the fourth top-level op, {@code #3.0} the first op in its loop
 * body), where the op was written when known, and the operand.
 */
public final class Kernels {
    private Kernels() {
    }

    /** Throws {@link IllegalArgumentException} on the first rule the kernel breaks. */
    public static void validate(Kernel k) {
        validate(k, op -> null);
    }

    /**
     * As {@link #validate(Kernel)}; {@code sourceLine} gives where each op was written (e.g.
     * {@code "ReluDense.java:87"}, null when unknown), and the message names it.
     */
    public static void validate(Kernel k, Function<? super TileOp, String> sourceLine) {
        new Validator(k, sourceLine).ops(k.body(), "", new boolean[k.scalars().size()]);
        ShapeFlow.check(k, sourceLine);
    }

    /** "kernel K: op #3.0 (add) at ReluDense.java:87": how messages name an op. */
    static String where(Kernel k, String position, TileOp op, Function<? super TileOp, String> sourceLine) {
        String line = sourceLine.apply(op);
        return "kernel " + k.name() + ": op #" + position + " (" + Mnemonics.of(op) + ")"
                + (line == null ? "" : " at " + line);
    }

    private static final class Validator {
        private final Kernel k;
        private final Function<? super TileOp, String> sourceLine;
        private String where;

        Validator(Kernel k, Function<? super TileOp, String> sourceLine) {
            this.k = k;
            this.sourceLine = sourceLine;
        }

        void ops(List<TileOp> ops, String prefix, boolean[] bound) {
            for (int i = 0; i < ops.size(); i++) {
                TileOp op = ops.get(i);
                where = where(k, prefix + i, op, sourceLine);
                op(op, bound);
                if (op instanceof TileOp.Loop loop) {
                    bound[loop.slot()] = true;
                    ops(loop.body(), prefix + i + ".", bound);
                    bound[loop.slot()] = false;
                }
            }
        }

        private void op(TileOp op, boolean[] bound) {
            switch (op) {
                case TileOp.Load l -> {
                    tile("dst", l.dst());
                    offsets(l.tensor(), l.offsets(), bound);
                    idx("valid_rows", l.validRows(), bound);
                    idx("valid_cols", l.validCols(), bound);
                    staticExtent("valid_rows", l.validRows(), decl(l.dst()).rows());
                    staticExtent("valid_cols", l.validCols(), decl(l.dst()).cols());
                }
                case TileOp.LoadRows l -> {
                    tile("dst", l.dst());
                    dtype("index", l.index(), DType.INT32);
                    offsets(l.tensor(), l.offsets(), bound);
                    if (k.tensors().get(l.tensor()).rank() < 2) {
                        fail("operand tensor", "must have rank >= 2 to gather rows, got rank "
                                + k.tensors().get(l.tensor()).rank());
                    }
                    idx("valid_cols", l.validCols(), bound);
                    staticExtent("valid_cols", l.validCols(), decl(l.dst()).cols());
                }
                case TileOp.Store s -> {
                    tile("src", s.src());
                    offsets(s.tensor(), s.offsets(), bound);
                }
                case TileOp.Fill f -> {
                    tile("dst", f.dst());
                    scalar("value", f.value(), bound);
                }
                case TileOp.Copy c -> same("dst", c.dst(), "src", c.src());
                case TileOp.Binary b -> {
                    numeric("a", b.a());
                    same("b", b.b(), "a", b.a());
                    same("dst", b.dst(), "a", b.a());
                }
                case TileOp.BinaryScalar b -> {
                    numeric("a", b.a());
                    same("dst", b.dst(), "a", b.a());
                    scalar("b", b.b(), bound);
                }
                case TileOp.Unary u -> {
                    if (u.fn() == Fn.Unary.NEG || u.fn() == Fn.Unary.ABS || u.fn() == Fn.Unary.RELU) {
                        numeric("src", u.src());
                    } else {
                        floating("src", u.src());
                    }
                    same("dst", u.dst(), "src", u.src());
                }
                case TileOp.RowBroadcast b -> broadcast(b.dst(), b.a(), b.b());
                case TileOp.ColBroadcast b -> broadcast(b.dst(), b.a(), b.b());
                case TileOp.Reduce r -> {
                    numeric("src", r.src());
                    same("dst", r.dst(), "src", r.src());
                    if (r.axis() != Fn.Axis.ALL) {
                        distinct("dst", r.dst(), "src", r.src());
                    }
                }
                case TileOp.MatMul m -> {
                    tile("a", m.a());
                    DType in = decl(m.a()).dtype();
                    DType acc = switch (in) {
                        case FP32, BF16, FP16 -> DType.FP32;
                        case INT8 -> DType.INT32;
                        default -> throw fail("operand a", "must be fp32, bf16, fp16 or int8, got " + describe(m.a()));
                    };
                    same("b", m.b(), "a", m.a());
                    dtype("c", m.c(), acc);
                    distinct("c", m.c(), "a", m.a());
                    distinct("c", m.c(), "b", m.b());
                }
                case TileOp.Cast c -> {
                    tile("dst", c.dst());
                    tile("src", c.src());
                }
                case TileOp.Transpose t -> {
                    same("dst", t.dst(), "src", t.src());
                    distinct("dst", t.dst(), "src", t.src());
                }
                case TileOp.Compare c -> {
                    numeric("a", c.a());
                    same("b", c.b(), "a", c.a());
                    dtype("dst", c.dst(), DType.BOOL);
                }
                case TileOp.CompareScalar c -> {
                    numeric("a", c.a());
                    dtype("dst", c.dst(), DType.BOOL);
                    scalar("b", c.b(), bound);
                }
                case TileOp.Select s -> {
                    dtype("mask", s.mask(), DType.BOOL);
                    same("b", s.b(), "a", s.a());
                    same("dst", s.dst(), "a", s.a());
                }
                case TileOp.GatherRows g -> {
                    dtype("index", g.index(), DType.INT32);
                    same("dst", g.dst(), "src", g.src());
                    distinct("dst", g.dst(), "src", g.src());
                }
                case TileOp.TopK t -> {
                    numeric("src", t.src());
                    same("values", t.values(), "src", t.src());
                    dtype("indices", t.indices(), DType.INT32);
                    int cols = decl(t.src()).cols();
                    if (t.k() < 1 || t.k() > cols) {
                        fail("k", "must be in [1, " + cols + "] (the columns of src " + describe(t.src()) + "), got k="
                                + t.k());
                    }
                    if (decl(t.values()).cols() < t.k() || decl(t.indices()).cols() < t.k()) {
                        fail("operand values/indices", "must have at least k=" + t.k() + " columns, got "
                                + describe(t.values()) + " and " + describe(t.indices()));
                    }
                    distinct("values", t.values(), "src", t.src());
                    distinct("indices", t.indices(), "src", t.src());
                    distinct("values", t.values(), "indices", t.indices());
                }
                case TileOp.CumSum c -> {
                    numeric("src", c.src());
                    same("dst", c.dst(), "src", c.src());
                }
                case TileOp.Quantize q -> {
                    floating("src", q.src());
                    dtype("q", q.q(), DType.INT8);
                    dtype("scale", q.scale(), DType.FP32);
                }
                case TileOp.Dequantize d -> {
                    dtype("q", d.q(), DType.INT8);
                    dtype("scale", d.scale(), DType.FP32);
                    floating("dst", d.dst());
                }
                case TileOp.Iota i -> {
                    numeric("dst", i.dst());
                    if (i.axis() == Fn.Axis.ALL) {
                        fail("axis", "must be rows or cols, got all");
                    }
                    scalar("start", i.start(), bound);
                }
                case TileOp.Loop l -> {
                    int n = k.scalars().size();
                    if (l.slot() < 0 || l.slot() >= n) {
                        fail("loop slot", "index " + l.slot() + " is out of range (the kernel declares " + n
                                + " scalar registers)");
                    }
                    ScalarDecl s = k.scalars().get(l.slot());
                    if (s.param()) {
                        fail("loop slot", "register " + l.slot() + " is scalar parameter " + s.name()
                                + ", not a loop variable");
                    }
                    if (bound[l.slot()]) {
                        fail("loop slot", "loop variable " + s.name() + " is already bound by an enclosing loop");
                    }
                    idx("start", l.start(), bound);
                    idx("end", l.end(), bound);
                }
            }
        }

        // ---- operand rules ----

        private void broadcast(int dst, int a, int b) {
            numeric("a", a);
            same("b", b, "a", a);
            same("dst", dst, "a", a);
            distinct("dst", dst, "b", b);
        }

        private TileDecl decl(int tile) {
            return k.tiles().get(tile);
        }

        private String describe(int tile) {
            TileDecl d = decl(tile);
            return "tile " + d.name() + " " + d.dtype().text() + "[" + d.rows() + "x" + d.cols() + "]";
        }

        private void tile(String operand, int tile) {
            int n = k.tiles().size();
            if (tile < 0 || tile >= n) {
                fail("operand " + operand, "tile index " + tile + " is out of range (the kernel declares " + n
                        + " tiles)");
            }
        }

        private void dtype(String operand, int tile, DType want) {
            tile(operand, tile);
            if (decl(tile).dtype() != want) {
                fail("operand " + operand, "must be " + want.text() + ", got " + describe(tile));
            }
        }

        private void numeric(String operand, int tile) {
            tile(operand, tile);
            if (decl(tile).dtype() == DType.BOOL) {
                fail("operand " + operand, "must be numeric (bool masks only feed select), got " + describe(tile));
            }
        }

        private void floating(String operand, int tile) {
            tile(operand, tile);
            if (!decl(tile).dtype().isFloat()) {
                fail("operand " + operand, "must be a float tile (fp32, fp16, bf16), got " + describe(tile));
            }
        }

        private void same(String operand, int tile, String refName, int ref) {
            tile(refName, ref);
            tile(operand, tile);
            if (decl(tile).dtype() != decl(ref).dtype()) {
                fail("operand " + operand, "must be " + decl(ref).dtype().text() + " to match " + refName + " ("
                        + describe(ref) + "), got " + describe(tile));
            }
        }

        private void distinct(String operand, int tile, String other, int otherTile) {
            if (tile == otherTile) {
                fail("operand " + operand, "must not be the same tile as " + other + " (" + describe(tile)
                        + "); this op cannot run in place");
            }
        }

        private void offsets(int tensor, List<Idx> offsets, boolean[] bound) {
            int n = k.tensors().size();
            if (tensor < 0 || tensor >= n) {
                fail("operand tensor", "tensor index " + tensor + " is out of range (the kernel declares " + n
                        + " tensor parameters)");
            }
            TensorParam p = k.tensors().get(tensor);
            if (offsets.size() != p.rank()) {
                fail("operand offsets", "tensor " + p.name() + " has rank " + p.rank() + " and needs " + p.rank()
                        + " offsets, got " + offsets.size());
            }
            for (int i = 0; i < offsets.size(); i++) {
                idx("offsets[" + i + "]", offsets.get(i), bound);
            }
        }

        private void staticExtent(String operand, Idx idx, int capacity) {
            if (idx.isConstant() && (idx.constant() < 0 || idx.constant() > capacity)) {
                fail("operand " + operand, "must be in [0, " + capacity + "] (the tile's capacity), got "
                        + idx.constant());
            }
        }

        private void idx(String operand, Idx idx, boolean[] bound) {
            for (int slot : idx.slots()) {
                slot(operand, slot, bound);
            }
        }

        private void scalar(String operand, Scalar s, boolean[] bound) {
            if (s instanceof Scalar.Slot(int slot)) {
                slot(operand, slot, bound);
            }
        }

        private void slot(String operand, int slot, boolean[] bound) {
            int n = k.scalars().size();
            if (slot < 0 || slot >= n) {
                fail("operand " + operand, "scalar register " + slot + " is out of range (the kernel declares " + n
                        + " scalar registers)");
            }
            ScalarDecl s = k.scalars().get(slot);
            if (!s.param() && !bound[slot]) {
                fail("operand " + operand, "loop variable " + s.name() + " is used outside its loop");
            }
        }

        private IllegalArgumentException fail(String what, String rule) {
            throw new IllegalArgumentException(where + ": " + what + " " + rule);
        }
    }
}
