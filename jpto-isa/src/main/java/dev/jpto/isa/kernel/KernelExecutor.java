package dev.jpto.isa.kernel;

import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.TileOp;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs kernels on a {@link TileEngine}. The first execution of a kernel validates it ({@link Kernels#validate})
 * and allocates its tiles and scalar registers; later executions reuse them, resetting every tile's valid
 * region to its full shape (tile contents are not cleared: a kernel must write a tile before reading it).
 *
 * <p>Not thread-safe: an executor (and the tiles it keeps) belongs to one thread at a time, like a core's
 * on-chip buffers. Use one executor per worker thread.
 */
public final class KernelExecutor {
    private static final int MAX_RANK = 16;

    private final TileEngine engine;
    private final Map<Kernel, Prepared> prepared = new IdentityHashMap<>();
    /** Scratch offset arrays, one per rank, so evaluating offsets does not allocate. */
    private final long[][] offsetScratch = new long[MAX_RANK + 1][];

    private long flops;
    private long bytesLoaded;
    private long bytesStored;
    private long ops;
    /** The current execution's observer, or null (the normal path: one null test per op). */
    private OpListener listener;

    /**
     * Sees the op stream of an execution as it runs (loops unrolled), e.g. for a device cost model. Arguments are
     * the executor's own state, readable only during the call and never to be modified.
     */
    public interface OpListener {
        /**
         * Op {@code op} is about to run: its operand tiles hold their valid regions as the op will read them, and
         * {@code registers} the scalar parameters and loop variables its {@link Idx} operands evaluate against.
         */
        void beforeOp(TileOp op, Tile[] tiles, Tensor[] tensors, double[] registers);
    }

    /** A validated kernel's state kept across executions. */
    private record Prepared(Tile[] tiles, double[] registers) {
    }

    public KernelExecutor(TileEngine engine) {
        this.engine = engine;
        for (int r = 0; r <= MAX_RANK; r++) {
            offsetScratch[r] = new long[r];
        }
    }

    public TileEngine engine() {
        return engine;
    }

    /**
     * Executes {@code k} on {@code tensors} (one per tensor parameter, in order) with {@code scalarParams}
     * (one per scalar parameter). Errors name the kernel and the parameter or op.
     */
    public ExecStats execute(Kernel k, Tensor[] tensors, double[] scalarParams) {
        return execute(k, tensors, scalarParams, null);
    }

    /** As {@link #execute(Kernel, Tensor[], double[])}, reporting every op to {@code observer} (may be null). */
    public ExecStats execute(Kernel k, Tensor[] tensors, double[] scalarParams, OpListener observer) {
        checkArguments(k, tensors, scalarParams);
        Prepared p = prepared.get(k);
        if (p == null) {
            p = prepare(k);
            prepared.put(k, p);
        }
        for (Tile t : p.tiles) {
            t.setValid(t.rows(), t.cols());
        }
        System.arraycopy(scalarParams, 0, p.registers, 0, scalarParams.length);
        flops = bytesLoaded = bytesStored = ops = 0;
        listener = observer;
        try {
            run(k, k.body(), p, tensors, "");
        } finally {
            listener = null;
        }
        return new ExecStats(flops, bytesLoaded, bytesStored, ops);
    }

    /** Drops the tiles kept for {@code k} (they are freed when unreachable). */
    public void release(Kernel k) {
        prepared.remove(k);
    }

    private static Prepared prepare(Kernel k) {
        Kernels.validate(k);
        Tile[] tiles = new Tile[k.tiles().size()];
        for (int i = 0; i < tiles.length; i++) {
            TileDecl d = k.tiles().get(i);
            tiles[i] = Tile.allocate(d.dtype(), d.rows(), d.cols());
        }
        return new Prepared(tiles, new double[k.scalars().size()]);
    }

    private static void checkArguments(Kernel k, Tensor[] tensors, double[] scalarParams) {
        List<TensorParam> params = k.tensors();
        if (tensors.length != params.size()) {
            throw new IllegalArgumentException("kernel " + k.name() + " takes " + params.size()
                    + " tensor arguments " + names(params) + ", got " + tensors.length);
        }
        for (int i = 0; i < tensors.length; i++) {
            TensorParam p = params.get(i);
            Tensor t = tensors[i];
            if (t == null || t.dtype() != p.dtype() || t.rank() != p.rank()) {
                throw new IllegalArgumentException("kernel " + k.name() + ": tensor parameter " + p.name() + " (#" + i
                        + ") must be " + p.dtype().text() + " of rank " + p.rank() + ", got "
                        + (t == null ? "null" : t + " (rank " + t.rank() + ")"));
            }
        }
        int n = k.scalarParamCount();
        if (scalarParams.length != n) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ", ").append(k.scalars().get(i).name());
            }
            throw new IllegalArgumentException("kernel " + k.name() + " takes " + n + " scalar parameters [" + sb
                    + "], got " + scalarParams.length);
        }
    }

    private static String names(List<TensorParam> params) {
        StringBuilder sb = new StringBuilder("[");
        for (TensorParam p : params) {
            sb.append(sb.length() == 1 ? "" : ", ").append(p.name());
        }
        return sb.append(']').toString();
    }

    private void run(Kernel k, List<TileOp> body, Prepared p, Tensor[] tensors, String prefix) {
        double[] regs = p.registers;
        for (int i = 0; i < body.size(); i++) {
            TileOp op = body.get(i);
            if (op instanceof TileOp.Loop loop) {
                long start = loop.start().eval(regs);
                long end = loop.end().eval(regs);
                String inner = prefix + i + ".";
                for (long v = start; v < end; ) {
                    regs[loop.slot()] = v;
                    run(k, loop.body(), p, tensors, inner);
                    long next = v + loop.step();
                    if (next < v) {
                        break; // the step overflowed past Long.MAX_VALUE: no further iteration is < end
                    }
                    v = next;
                }
                continue;
            }
            try {
                if (listener != null) {
                    listener.beforeOp(op, p.tiles, tensors, regs);
                }
                step(op, p.tiles, tensors, regs);
                ops++;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("kernel " + k.name() + ": op #" + prefix + i + " ("
                        + Mnemonics.of(op) + "): " + e.getMessage(), e);
            }
        }
    }

    private long[] offsets(List<Idx> idx, double[] regs) {
        long[] out = idx.size() <= MAX_RANK ? offsetScratch[idx.size()] : new long[idx.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = idx.get(i).eval(regs);
        }
        return out;
    }

    private static int extent(String what, Idx idx, double[] regs) {
        long v = idx.eval(regs);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " must be a non-negative int, got " + v);
        }
        return (int) v;
    }

    private static long elements(Tile t) {
        return (long) t.validRows() * t.validCols();
    }

    private void step(TileOp op, Tile[] t, Tensor[] tensors, double[] regs) {
        switch (op) {
            case TileOp.Load l -> {
                Tensor src = tensors[l.tensor()];
                int rows = extent("valid_rows", l.validRows(), regs);
                int cols = extent("valid_cols", l.validCols(), regs);
                engine.load(t[l.dst()], src, offsets(l.offsets(), regs), rows, cols);
                bytesLoaded += (long) rows * cols * src.dtype().byteSize();
            }
            case TileOp.LoadRows l -> {
                Tensor src = tensors[l.tensor()];
                int cols = extent("valid_cols", l.validCols(), regs);
                engine.loadRows(t[l.dst()], src, t[l.index()], offsets(l.offsets(), regs), cols);
                bytesLoaded += (long) t[l.index()].validRows() * cols * src.dtype().byteSize();
            }
            case TileOp.Store s -> {
                Tensor dst = tensors[s.tensor()];
                engine.store(t[s.src()], dst, offsets(s.offsets(), regs));
                bytesStored += elements(t[s.src()]) * dst.dtype().byteSize();
            }
            case TileOp.Fill f -> engine.fill(t[f.dst()], f.value().eval(regs));
            case TileOp.Copy c -> engine.copy(t[c.dst()], t[c.src()]);
            case TileOp.Binary b -> {
                engine.binary(b.fn(), t[b.dst()], t[b.a()], t[b.b()]);
                flops += elements(t[b.dst()]);
            }
            case TileOp.BinaryScalar b -> {
                engine.binaryScalar(b.fn(), t[b.dst()], t[b.a()], b.b().eval(regs));
                flops += elements(t[b.dst()]);
            }
            case TileOp.Unary u -> {
                engine.unary(u.fn(), t[u.dst()], t[u.src()]);
                flops += elements(t[u.dst()]);
            }
            case TileOp.RowBroadcast b -> {
                engine.rowBroadcast(b.fn(), t[b.dst()], t[b.a()], t[b.b()]);
                flops += elements(t[b.dst()]);
            }
            case TileOp.ColBroadcast b -> {
                engine.colBroadcast(b.fn(), t[b.dst()], t[b.a()], t[b.b()]);
                flops += elements(t[b.dst()]);
            }
            case TileOp.Reduce r -> {
                long n = elements(t[r.src()]);
                engine.reduce(r.fn(), r.axis(), t[r.dst()], t[r.src()]);
                flops += n;
            }
            case TileOp.MatMul m -> {
                Tile a = t[m.a()];
                long k = a.validCols();
                engine.matmul(t[m.c()], a, t[m.b()], m.transposeB(), m.accumulate());
                flops += 2 * elements(t[m.c()]) * k;
            }
            case TileOp.Cast c -> engine.cast(t[c.dst()], t[c.src()], c.mode());
            case TileOp.Transpose tr -> engine.transpose(t[tr.dst()], t[tr.src()]);
            case TileOp.Compare c -> {
                engine.compare(c.fn(), t[c.dst()], t[c.a()], t[c.b()]);
                flops += elements(t[c.dst()]);
            }
            case TileOp.CompareScalar c -> {
                engine.compareScalar(c.fn(), t[c.dst()], t[c.a()], c.b().eval(regs));
                flops += elements(t[c.dst()]);
            }
            case TileOp.Select s -> engine.select(t[s.dst()], t[s.mask()], t[s.a()], t[s.b()]);
            case TileOp.GatherRows g -> engine.gatherRows(t[g.dst()], t[g.src()], t[g.index()]);
            case TileOp.TopK tk -> engine.topK(t[tk.values()], t[tk.indices()], t[tk.src()], tk.k());
            case TileOp.CumSum c -> {
                engine.cumSum(t[c.dst()], t[c.src()]);
                flops += elements(t[c.dst()]);
            }
            case TileOp.Quantize q -> {
                engine.quantize(t[q.q()], t[q.scale()], t[q.src()]);
                flops += 2 * elements(t[q.q()]);
            }
            case TileOp.Dequantize d -> {
                engine.dequantize(t[d.dst()], t[d.q()], t[d.scale()]);
                flops += elements(t[d.dst()]);
            }
            case TileOp.Iota i -> engine.iota(t[i.dst()], i.axis(), i.start().eval(regs));
            case TileOp.Loop _ -> throw new IllegalStateException("loops are run by run(), not step()");
        }
    }
}
