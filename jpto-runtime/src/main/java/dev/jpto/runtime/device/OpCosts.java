package dev.jpto.runtime.device;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.TileOp;
import dev.jpto.runtime.CoreType;

/**
 * The device cost of each tile op on one core type, from the {@link HardwareSpec} table. Sizes are read from the
 * operands as the op is about to run (valid regions, evaluated extents), so the cost depends only on the program.
 *
 * <ul>
 * <li>load / load_rows: MTE_IN, bytes (the tensor's dtype) at the core's GM read rate, plus the load latency;
 *     store likewise on MTE_OUT.</li>
 * <li>matmul: CUBE, head cycles + ⌈M/16⌉·⌈N/16⌉·⌈K/k0⌉ fractals at the dtype's cycles per fractal.</li>
 * <li>everything else: VECTOR, one pass per instruction = start-up + elements ÷ lanes per cycle of its class;
 *     composite functions are several passes (see {@link #vector}).</li>
 * </ul>
 */
final class OpCosts {
    private final HardwareSpec spec;
    private final HardwareSpec.VectorRates v;
    private final double loadBytesPerCycle;
    private final double storeBytesPerCycle;

    OpCosts(HardwareSpec spec, CoreType core) {
        this.spec = spec;
        this.v = spec.vector();
        this.loadBytesPerCycle = spec.loadBytesPerCycle(core);
        this.storeBytesPerCycle = spec.storeBytesPerCycle(core);
    }

    /** Vector op classes: what limits a pass's element rate. */
    enum VectorClass { SIMPLE, BINARY, TRANSCENDENTAL, DIVISION }

    OpCost of(TileOp op, Tile[] t, Tensor[] tensors, double[] regs) {
        return switch (op) {
            case TileOp.Load l -> {
                long bytes = l.validRows().eval(regs) * l.validCols().eval(regs)
                        * tensors[l.tensor()].dtype().byteSize();
                yield load(bytes);
            }
            case TileOp.LoadRows l -> load(t[l.index()].validRows() * l.validCols().eval(regs)
                    * tensors[l.tensor()].dtype().byteSize());
            case TileOp.Store s -> {
                long bytes = elements(t[s.src()]) * tensors[s.tensor()].dtype().byteSize();
                yield new OpCost(Pipe.MTE_OUT, ceil(bytes / storeBytesPerCycle), spec.memory().storeLatencyCycles(),
                        bytes);
            }
            case TileOp.MatMul m -> matmul(t[m.a()], t[m.b()], m.transposeB());
            case TileOp.Fill f -> vector(pass(VectorClass.SIMPLE, elements(t[f.dst()]), t[f.dst()].dtype()));
            case TileOp.Iota i -> vector(pass(VectorClass.SIMPLE, elements(t[i.dst()]), t[i.dst()].dtype()));
            case TileOp.Copy c -> vector(pass(VectorClass.SIMPLE, elements(t[c.src()]), t[c.src()].dtype()));
            case TileOp.Transpose tr -> vector(pass(VectorClass.SIMPLE, elements(t[tr.src()]), t[tr.src()].dtype()));
            case TileOp.Cast c -> vector(pass(VectorClass.SIMPLE, elements(t[c.src()]),
                    wider(t[c.src()].dtype(), t[c.dst()].dtype())));
            case TileOp.Binary b -> vector(pass(b.fn() == Fn.Binary.DIV ? VectorClass.DIVISION : VectorClass.BINARY,
                    elements(t[b.a()]), t[b.a()].dtype()));
            case TileOp.BinaryScalar b -> vector(pass(b.fn() == Fn.Binary.DIV ? VectorClass.DIVISION
                    : VectorClass.SIMPLE, elements(t[b.a()]), t[b.a()].dtype()));
            case TileOp.RowBroadcast b -> vector(pass(b.fn() == Fn.Binary.DIV ? VectorClass.DIVISION
                    : VectorClass.BINARY, elements(t[b.a()]), t[b.a()].dtype()));
            case TileOp.ColBroadcast b -> vector(pass(b.fn() == Fn.Binary.DIV ? VectorClass.DIVISION
                    : VectorClass.BINARY, elements(t[b.a()]), t[b.a()].dtype()));
            case TileOp.Unary u -> unary(u.fn(), elements(t[u.src()]), t[u.src()].dtype());
            case TileOp.Compare c -> vector(pass(VectorClass.BINARY, elements(t[c.a()]), t[c.a()].dtype()));
            case TileOp.CompareScalar c -> vector(pass(VectorClass.SIMPLE, elements(t[c.a()]), t[c.a()].dtype()));
            case TileOp.Select s -> vector(pass(VectorClass.BINARY, elements(t[s.a()]), t[s.a()].dtype()));
            case TileOp.GatherRows g -> vector(pass(VectorClass.SIMPLE,
                    (long) t[g.index()].validRows() * t[g.src()].validCols(), t[g.src()].dtype()));
            case TileOp.Reduce r -> vector(reduction(t[r.src()], 1));
            case TileOp.CumSum c -> vector(reduction(t[c.src()], 1));
            case TileOp.TopK tk -> vector(reduction(t[tk.src()], log2Ceil(t[tk.src()].validCols())));
            case TileOp.Quantize q -> vector(reduction(t[q.src()], 1)
                    + pass(VectorClass.DIVISION, elements(t[q.src()]), t[q.src()].dtype())
                    + pass(VectorClass.SIMPLE, elements(t[q.src()]), t[q.src()].dtype()));
            case TileOp.Dequantize d -> vector(pass(VectorClass.SIMPLE, elements(t[d.q()]), t[d.dst()].dtype())
                    + pass(VectorClass.BINARY, elements(t[d.q()]), t[d.dst()].dtype()));
            case TileOp.Loop _ -> throw new IllegalArgumentException("loops are not ops: their bodies are costed");
        };
    }

    private OpCost load(long bytes) {
        return new OpCost(Pipe.MTE_IN, ceil(bytes / loadBytesPerCycle), spec.memory().loadLatencyCycles(), bytes);
    }

    private OpCost matmul(Tile a, Tile b, boolean transposeB) {
        HardwareSpec.CubeRates cube = spec.cube();
        HardwareSpec.CubeRate rate = cube.of(a.dtype());
        long m = a.validRows();
        long k = a.validCols();
        long n = transposeB ? b.validRows() : b.validCols();
        int mn = HardwareSpec.CubeRates.FRACTAL_MN;
        long fractals = Math.ceilDiv(m, mn) * Math.ceilDiv(n, mn) * Math.ceilDiv(k, rate.k0());
        return new OpCost(Pipe.CUBE, cube.headCycles() + fractals * rate.cyclesPerFractal(), 0, 0);
    }

    /**
     * Unary functions: NEG, ABS, RELU one simple pass; EXP, LOG, SQRT one transcendental pass; RSQRT, RECIPROCAL
     * one division pass; TANH, SIGMOID, SILU, GELU an exponential then a division (1/(1+e^u) and a multiply folded
     * into them), so two passes.
     */
    private OpCost unary(Fn.Unary fn, long n, DType d) {
        return vector(switch (fn) {
            case NEG, ABS, RELU -> pass(VectorClass.SIMPLE, n, d);
            case EXP, LOG, SQRT -> pass(VectorClass.TRANSCENDENTAL, n, d);
            case RSQRT, RECIPROCAL -> pass(VectorClass.DIVISION, n, d);
            case TANH, SIGMOID, SILU, GELU -> pass(VectorClass.TRANSCENDENTAL, n, d) + pass(VectorClass.DIVISION, n, d);
        });
    }

    private static OpCost vector(long cycles) {
        return new OpCost(Pipe.VECTOR, cycles, 0, 0);
    }

    /** One vector instruction over {@code n} elements of {@code d}: start-up + ⌈n / lanes⌉. */
    long pass(VectorClass c, long n, DType d) {
        double lanes = switch (c) {
            case SIMPLE -> v.simpleBytesPerCycle() / d.byteSize();
            case BINARY -> v.binaryBytesPerCycle() / d.byteSize();
            case TRANSCENDENTAL -> v.transcendentalPerCycle();
            case DIVISION -> v.divisionPerCycle();
        };
        return v.startupCycles() + ceil(n / lanes);
    }

    /**
     * A reduction-like pass over {@code src} (reduce, cumsum, top-k, quantize's amax): start-up, the per-row cost
     * for each source row, and the elements streamed {@code sweeps} times at the single-source rate (a top-k sorts
     * with ⌈log2 cols⌉ sweeps).
     */
    private long reduction(Tile src, long sweeps) {
        double lanes = v.simpleBytesPerCycle() / src.dtype().byteSize();
        return v.startupCycles() + (long) src.validRows() * v.reductionRowCycles()
                + ceil(elements(src) * sweeps / lanes);
    }

    private static long elements(Tile t) {
        return (long) t.validRows() * t.validCols();
    }

    private static DType wider(DType a, DType b) {
        return a.byteSize() >= b.byteSize() ? a : b;
    }

    private static long log2Ceil(int n) {
        return n <= 1 ? 1 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    private static long ceil(double x) {
        return (long) Math.ceil(x);
    }
}
