package dev.jpto.runtime.device;

import dev.jpto.isa.op.TileOp;

/** The tiles an op reads and writes (indices into the kernel's tile declarations), for dependency tracking. */
record Operands(int[] reads, int[] writes) {
    private static final int[] NONE = {};

    static Operands of(TileOp op) {
        return switch (op) {
            case TileOp.Load l -> new Operands(NONE, one(l.dst()));
            case TileOp.LoadRows l -> new Operands(one(l.index()), one(l.dst()));
            case TileOp.Store s -> new Operands(one(s.src()), NONE);
            case TileOp.Fill f -> new Operands(NONE, one(f.dst()));
            case TileOp.Iota i -> new Operands(NONE, one(i.dst()));
            case TileOp.Copy c -> new Operands(one(c.src()), one(c.dst()));
            case TileOp.Binary b -> new Operands(new int[] {b.a(), b.b()}, one(b.dst()));
            case TileOp.BinaryScalar b -> new Operands(one(b.a()), one(b.dst()));
            case TileOp.Unary u -> new Operands(one(u.src()), one(u.dst()));
            case TileOp.RowBroadcast b -> new Operands(new int[] {b.a(), b.b()}, one(b.dst()));
            case TileOp.ColBroadcast b -> new Operands(new int[] {b.a(), b.b()}, one(b.dst()));
            case TileOp.Reduce r -> new Operands(one(r.src()), one(r.dst()));
            case TileOp.MatMul m -> new Operands(m.accumulate() ? new int[] {m.a(), m.b(), m.c()}
                    : new int[] {m.a(), m.b()}, one(m.c()));
            case TileOp.Cast c -> new Operands(one(c.src()), one(c.dst()));
            case TileOp.Transpose t -> new Operands(one(t.src()), one(t.dst()));
            case TileOp.Compare c -> new Operands(new int[] {c.a(), c.b()}, one(c.dst()));
            case TileOp.CompareScalar c -> new Operands(one(c.a()), one(c.dst()));
            case TileOp.Select s -> new Operands(new int[] {s.mask(), s.a(), s.b()}, one(s.dst()));
            case TileOp.GatherRows g -> new Operands(new int[] {g.src(), g.index()}, one(g.dst()));
            case TileOp.TopK t -> new Operands(one(t.src()), new int[] {t.values(), t.indices()});
            case TileOp.CumSum c -> new Operands(one(c.src()), one(c.dst()));
            case TileOp.Quantize q -> new Operands(one(q.src()), new int[] {q.q(), q.scale()});
            case TileOp.Dequantize d -> new Operands(new int[] {d.q(), d.scale()}, one(d.dst()));
            case TileOp.Loop _ -> throw new IllegalArgumentException("a loop has no operands of its own");
        };
    }

    private static int[] one(int tile) {
        return new int[] {tile};
    }
}
