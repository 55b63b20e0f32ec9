package dev.jpto.compiler.exec;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Orchestrator;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.TaskBody;
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
                    try (Scope _ = orch.scope()) {
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
                case SubmitArg.TensorArg ta -> new Arg.TensorArg(resolve(ta.tensor()), ta.direction());
                case SubmitArg.IndexArg ia -> Arg.scalar(ia.value().eval(vars));
                case SubmitArg.FloatArg fa -> Arg.scalar(fa.value());
            };
        }
        long task = orch.submit(sub.kernel(), sub.coreType(), bodies.get(sub.kernel()), args);
        for (int i = 0; i < produced.length; i++) {
            if (produced[i] != null) {
                tensors.put(produced[i], orch.output(task, i));
            }
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
