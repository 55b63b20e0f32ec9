package dev.jpto.compiler.exec;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.BlockVars;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.Launch;
import dev.jpto.runtime.MixedKernels;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Orchestrator;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.ScopeKind;
import dev.jpto.runtime.TaskBody;
import dev.jpto.runtime.TaskContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a verified program's orchestration on the runtime's orchestrator: loops, scopes and views are
 * evaluated here, each submit becomes one runtime task whose body runs the kernel through a
 * {@link KernelInvoker}. An intermediate is bound to the heap-ring tensor of the task that produced it.
 */
public final class ProgramInterpreter implements Orchestration {
    private final Program program;
    private final Map<String, Tensor> tensors;
    private final Map<String, TaskBody> bodies = new HashMap<>();
    private final Map<String, Long> vars = new HashMap<>();
    private final Map<String, TensorDecl> allocs = new HashMap<>();
    private final boolean computes;
    /** Per submit label: the id of the latest task that submit produced. */
    private final Map<String, Long> labelled = new HashMap<>();

    /** {@code args}: one tensor per program input and output, already checked against the signature. */
    public ProgramInterpreter(Program program, Map<String, Tensor> args, KernelInvoker invoker) {
        this.program = program;
        this.tensors = new HashMap<>(args);
        this.computes = invoker.computes();
        for (Kernel k : program.kernels()) {
            bodies.put(k.name(), task -> invoker.invoke(k, task));
        }
    }

    @Override
    public void orchestrate(Orchestrator orch) {
        block(orch, program.body());
    }

    private void block(Orchestrator orch, List<Stmt> body) {
        List<String> declared = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> loop(orch, f);
                case Stmt.Scope sc -> {
                    try (Scope _ = sc.kind() == ScopeKind.MANUAL ? orch.manualScope() : orch.scope()) {
                        block(orch, sc.body());
                    }
                }
                case Stmt.Alloc a -> {
                    declared.add(a.tensor().name());
                    allocs.put(a.tensor().name(), a.tensor());
                }
                case Stmt.Submit sub -> submit(orch, sub);
                case Stmt.Read r -> {
                    vars.put(r.var(), read(orch, r));
                    reads.add(r.var());
                }
            }
        }
        reads.forEach(vars::remove);
        // Intermediates are block-scoped: forget them so the next iteration binds a fresh buffer.
        for (String name : declared) {
            tensors.remove(name);
            allocs.remove(name);
        }
    }

    private void loop(Orchestrator orch, Stmt.For f) {
        long start = f.start().eval(vars);
        long end = f.end().eval(vars);
        for (long v = start; v < end; v += f.step()) {
            vars.put(f.var(), v);
            block(orch, f.body());
        }
        vars.remove(f.var());
    }

    private long read(Orchestrator orch, Stmt.Read r) {
        if (!computes) {
            return r.max();
        }
        long v = orch.readScalar(resolve(r.element()));
        if (v < 0 || v > r.max()) {
            throw new IllegalStateException("read '" + r.var() + "' = " + r.element() + " gave " + v + ", outside its "
                    + "declared range [0, " + r.max() + "]: the kernel that wrote it broke the bound the program "
                    + "declares (and the ring plan assumes); fix that kernel or raise the read's max");
        }
        return v;
    }

    private void submit(Orchestrator orch, Stmt.Submit sub) {
        List<SubmitArg> list = sub.args();
        Arg[] args = new Arg[list.size()];
        String[] produced = new String[list.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = switch (list.get(i)) {
                case SubmitArg.TensorArg ta when ta.direction() == Direction.OUTPUT -> {
                    String name = ta.tensor().root();
                    produced[i] = name;
                    TensorDecl decl = allocs.get(name);
                    yield Arg.output(decl.dtype(), decl.shape());
                }
                case SubmitArg.TensorArg ta -> new Arg.TensorArg(BlockVars.uses(ta.tensor())
                        ? blockBox(ta.tensor(), sub.blockNum()) : resolve(ta.tensor()), ta.direction());
                case SubmitArg.IndexArg ia -> Arg.scalar(BlockVars.uses(ia.value()) ? 0 : ia.value().eval(vars));
                case SubmitArg.FloatArg fa -> Arg.scalar(fa.value());
            };
        }
        long[] deps = new long[sub.after().size()];
        for (int i = 0; i < deps.length; i++) {
            deps[i] = labelled.get(sub.after().get(i));
        }
        Launch launch = new Launch(sub.blockNum(), sub.requireSyncStart(), deps);
        long task = sub.mixed() == null
                ? orch.submit(launch, sub.kernel(), sub.coreType(), blockBody(sub, bodies.get(sub.kernel())), args)
                : orch.submitMixed(launch, mixedKernels(sub), args);
        if (sub.label() != null) {
            labelled.put(sub.label(), task);
        }
        for (int i = 0; i < produced.length; i++) {
            if (produced[i] != null) {
                tensors.put(produced[i], orch.output(task, i));
            }
        }
    }

    /** The runtime's kernels of a mixed submit: each active lane runs its kernel with the block variables. */
    private MixedKernels mixedKernels(Stmt.Submit sub) {
        TaskBody[] lanes = new TaskBody[3];
        for (int lane = 0; lane < lanes.length; lane++) {
            String name = sub.mixed().lane(lane);
            lanes[lane] = name == null ? null : blockBody(sub, bodies.get(name));
        }
        return new MixedKernels(sub.kernel(), lanes[0], lanes[1], lanes[2]);
    }

    /**
     * A tensor argument whose slice moves with the block: the bounding box of every block's view, which the task
     * passes (one TensorMap entry). Block variables may only move the outermost slice.
     */
    private Tensor blockBox(TensorExpr e, int blockNum) {
        if (!(e instanceof TensorExpr.Slice s) || BlockVars.uses(s.base())) {
            throw new IllegalStateException("block variables may only appear in the outermost slice of a tensor "
                    + "argument: " + e);
        }
        long[] lo = new long[s.starts().size()];
        long[] ext = s.extents();
        for (int d = 0; d < lo.length; d++) {
            long[] r = BlockVars.range(s.starts().get(d), vars, blockNum);
            lo[d] = r[0];
            ext[d] = r[1] - r[0] + ext[d];
        }
        return resolve(s.base()).slice(lo, ext);
    }

    /** The view of block {@code idx} inside the bounding box {@code box} of {@link #blockBox}. */
    private static Tensor blockView(Tensor box, TensorExpr.Slice s, Map<String, Long> at, TaskContext task) {
        long[] rel = new long[s.starts().size()];
        for (int d = 0; d < rel.length; d++) {
            Affine a = s.starts().get(d);
            rel[d] = BlockVars.eval(a, at, task.blockIndex(), task.blockNum(), task.subBlockIndex())
                    - BlockVars.range(a, at, task.blockNum())[0];
        }
        return box.slice(rel, s.extents());
    }

    /**
     * The kernel body of a submit whose index arguments use the block variables: each block sees them evaluated
     * with its own index (the loop variables as they were at submit). Other submits run the kernel's body as is.
     */
    private TaskBody blockBody(Stmt.Submit sub, TaskBody body) {
        List<SubmitArg> list = sub.args();
        Map<Integer, Affine> perBlock = new HashMap<>();
        Map<Integer, TensorExpr.Slice> views = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof SubmitArg.IndexArg ia && BlockVars.uses(ia.value())) {
                perBlock.put(i, ia.value());
            } else if (list.get(i) instanceof SubmitArg.TensorArg ta && BlockVars.uses(ta.tensor())) {
                views.put(i, (TensorExpr.Slice) ta.tensor());
            }
        }
        if (perBlock.isEmpty() && views.isEmpty()) {
            return body;
        }
        Map<String, Long> at = new HashMap<>(vars);
        return task -> body.execute(new BlockContext(task, perBlock, views, at));
    }

    /** A task context whose block-dependent index arguments and tensor views are evaluated for this block. */
    private record BlockContext(TaskContext task, Map<Integer, Affine> perBlock, Map<Integer, TensorExpr.Slice> views,
                                Map<String, Long> at) implements TaskContext {
        @Override
        public Tensor tensor(int argIndex) {
            TensorExpr.Slice s = views.get(argIndex);
            Tensor t = task.tensor(argIndex);
            return s == null ? t : blockView(t, s, at, task);
        }

        @Override
        public double scalar(int argIndex) {
            Affine a = perBlock.get(argIndex);
            return a != null ? BlockVars.eval(a, at, task.blockIndex(), task.blockNum(), task.subBlockIndex())
                    : task.scalar(argIndex);
        }

        @Override
        public int argCount() {
            return task.argCount();
        }

        @Override
        public long taskId() {
            return task.taskId();
        }

        @Override
        public String kernelName() {
            return task.kernelName();
        }

        @Override
        public CoreType coreType() {
            return task.coreType();
        }

        @Override
        public int coreId() {
            return task.coreId();
        }

        @Override
        public int blockIndex() {
            return task.blockIndex();
        }

        @Override
        public int blockNum() {
            return task.blockNum();
        }

        @Override
        public int subBlockIndex() {
            return task.subBlockIndex();
        }

        @Override
        public void recordWork(long flops, long bytesRead, long bytesWritten) {
            task.recordWork(flops, bytesRead, bytesWritten);
        }

        @Override
        public void recordDeviceCost(long cycles, long gmBytes) {
            task.recordDeviceCost(cycles, gmBytes);
        }

        @Override
        public void recordDeviceCost(long cycles, long gmBytes, long[] readLines, long[] writtenLines,
                                     long trackedReadBytes) {
            task.recordDeviceCost(cycles, gmBytes, readLines, writtenLines, trackedReadBytes);
        }

        @Override
        public Platform platform() {
            return task.platform();
        }
    }

    private Tensor resolve(TensorExpr e) {
        return switch (e) {
            case TensorExpr.Ref r -> {
                Tensor t = tensors.get(r.name());
                if (t == null) {
                    throw new IllegalStateException("tensor '" + r.name() + "' is not bound (unverified program?)");
                }
                yield t;
            }
            case TensorExpr.Slice s -> {
                long[] starts = new long[s.starts().size()];
                for (int d = 0; d < starts.length; d++) {
                    Affine a = s.starts().get(d);
                    starts[d] = a.eval(vars);
                }
                yield resolve(s.base()).slice(starts, s.extents());
            }
            case TensorExpr.Reshape r -> resolve(r.base()).reshape(r.shape());
        };
    }
}
