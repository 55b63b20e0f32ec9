package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelExecutor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a program the plain way: statements in order on the calling thread, each task's kernel to completion on
 * the ISA's scalar reference engine before the next task starts, intermediates as fresh buffers. No chip, no
 * rings, no scheduler, no TensorMap: what it computes is the sequential meaning the chip must reproduce. A
 * multi-block task runs its blocks in order, each with {@code block_idx} bound to its index; a mixed task runs, per
 * block, its active lanes in lane order (cube, vector 0, vector 1, as the simulator does) with {@code sub_block_idx}
 * 0, 0 and 1; scope kinds and explicit dependencies change nothing here (program order already satisfies them).
 */
public final class ReferenceExecutor {
    private final Program program;
    private final Map<String, Tensor> tensors;
    private final Map<String, Kernel> kernels = new HashMap<>();
    private final Map<String, TensorDecl> allocs = new HashMap<>();
    private final Map<String, Long> vars = new HashMap<>();
    private final KernelExecutor executor = new KernelExecutor(new ScalarEngine());
    private final Arena arena;
    private int tasks;

    private ReferenceExecutor(Program program, Map<String, Tensor> args, Arena arena) {
        this.program = program;
        this.tensors = new HashMap<>(args);
        this.arena = arena;
        for (Kernel k : program.kernels()) {
            kernels.put(k.name(), k);
        }
    }

    /**
     * Runs {@code program} on {@code args} (one tensor per input and output; outputs are written in place) and
     * returns the number of tasks it ran.
     */
    public static int run(Program program, Map<String, Tensor> args) {
        for (TensorDecl d : program.signature()) {
            if (!args.containsKey(d.name())) {
                throw new IllegalArgumentException("reference run of " + program.name() + ": missing tensor '"
                        + d.name() + "' (" + d + ")");
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            ReferenceExecutor r = new ReferenceExecutor(program, args, arena);
            r.block(program.body());
            return r.tasks;
        }
    }

    private void block(List<Stmt> body) {
        List<String> declared = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> {
                    long end = f.end().eval(vars);
                    for (long v = f.start().eval(vars); v < end; v += f.step()) {
                        vars.put(f.var(), v);
                        block(f.body());
                    }
                    vars.remove(f.var());
                }
                case Stmt.Scope sc -> block(sc.body());
                case Stmt.Alloc a -> {
                    declared.add(a.tensor().name());
                    allocs.put(a.tensor().name(), a.tensor());
                }
                case Stmt.Submit sub -> submit(sub);
                case Stmt.Read r -> {
                    vars.put(r.var(), (long) resolve(r.element()).getDouble(0));
                    reads.add(r.var());
                }
            }
        }
        for (String name : declared) {
            tensors.remove(name);
            allocs.remove(name);
        }
        reads.forEach(vars::remove);
    }

    private void submit(Stmt.Submit sub) {
        Kernel k = kernels.get(Lanes.kernels(sub).getFirst()); // the lanes of a mixed task share its parameters
        int nt = k.tensors().size();
        Tensor[] ts = new Tensor[nt];
        double[] scalars = new double[sub.args().size() - nt];
        for (int i = 0; i < sub.args().size(); i++) {
            switch (sub.args().get(i)) {
                case SubmitArg.TensorArg ta when ta.direction() == dev.jpto.runtime.Direction.OUTPUT -> {
                    TensorDecl d = allocs.get(ta.tensor().root());
                    Tensor t = Tensor.allocate(arena, d.dtype(), d.shape());
                    tensors.put(d.name(), t);
                    ts[i] = t;
                }
                case SubmitArg.TensorArg ta -> ts[i] = resolve(ta.tensor());
                case SubmitArg.IndexArg ia -> { } // per block, below
                case SubmitArg.FloatArg fa -> scalars[i - nt] = fa.value();
            }
        }
        vars.put(Stmt.Submit.BLOCK_NUM, (long) sub.blockNum());
        for (int block = 0; block < sub.blockNum(); block++) {
            vars.put(Stmt.Submit.BLOCK_IDX, (long) block);
            for (int lane = 0; lane < 3; lane++) {
                String name = sub.mixed() == null ? (lane == 0 ? sub.kernel() : null) : sub.mixed().lane(lane);
                if (name == null) {
                    continue;
                }
                vars.put(Stmt.Submit.SUB_BLOCK_IDX, lane == 2 ? 1L : 0L);
                for (int i = nt; i < sub.args().size(); i++) {
                    if (sub.args().get(i) instanceof SubmitArg.IndexArg ia) {
                        scalars[i - nt] = ia.value().eval(vars);
                    }
                }
                executor.execute(kernels.get(name), ts, scalars);
            }
        }
        vars.remove(Stmt.Submit.BLOCK_IDX);
        vars.remove(Stmt.Submit.BLOCK_NUM);
        vars.remove(Stmt.Submit.SUB_BLOCK_IDX);
        tasks++;
    }

    private Tensor resolve(TensorExpr e) {
        return switch (e) {
            case TensorExpr.Ref r -> tensors.get(r.name());
            case TensorExpr.Reshape r -> resolve(r.base()).reshape(r.shape());
            case TensorExpr.Slice s -> {
                long[] starts = new long[s.starts().size()];
                for (int d = 0; d < starts.length; d++) {
                    starts[d] = s.starts().get(d).eval(vars);
                }
                yield resolve(s.base()).slice(starts, s.extents());
            }
        };
    }

    @Override
    public String toString() {
        return "ReferenceExecutor[" + program.name() + "]";
    }
}
