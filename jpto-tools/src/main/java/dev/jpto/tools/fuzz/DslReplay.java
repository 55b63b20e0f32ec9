package dev.jpto.tools.fuzz;

import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.CoreType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a drafted program again through the DSL ({@link ProgramBuilder}, {@link Orch}, {@link TaskArg}), so the
 * fuzzer's programs are what a DSL user writes and the DSL is covered too; the result equals the draft.
 */
final class DslReplay {
    private final Map<String, TensorVar> vars = new HashMap<>();
    private final Map<String, KernelRef> kernels = new HashMap<>();

    private DslReplay() {
    }

    /** {@code draft} built with the DSL; {@code coreTypes} holds the core type of each kernel, in order. */
    static Program build(Program draft, List<CoreType> coreTypes) {
        DslReplay r = new DslReplay();
        ProgramBuilder p = ProgramBuilder.program(draft.name());
        for (TensorDecl d : draft.inputs()) {
            r.vars.put(d.name(), p.input(d.name(), d.dtype(), d.shape()));
        }
        for (TensorDecl d : draft.outputs()) {
            r.vars.put(d.name(), p.output(d.name(), d.dtype(), d.shape()));
        }
        for (int i = 0; i < draft.kernels().size(); i++) {
            Kernel k = draft.kernels().get(i);
            r.kernels.put(k.name(), p.kernel(k, coreTypes.get(i)));
        }
        p.orchestrate(o -> r.block(o, draft.body()));
        return p.build();
    }

    private void block(Orch o, List<Stmt> body) {
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> o.forRange(f.var(), f.start(), f.end(), f.step(), i -> block(o, f.body()));
                case Stmt.Scope sc -> {
                    if (sc.kind() == dev.jpto.runtime.ScopeKind.MANUAL) {
                        o.manualScope(() -> block(o, sc.body()));
                    } else {
                        o.scope(() -> block(o, sc.body()));
                    }
                }
                case Stmt.Alloc a -> vars.put(a.tensor().name(),
                        o.alloc(a.tensor().name(), a.tensor().dtype(), a.tensor().shape()));
                case Stmt.Read r -> o.read(r.var(), view(r.element()), r.max());
                case Stmt.Submit sub -> submit(o, sub);
            }
        }
    }

    private void submit(Orch o, Stmt.Submit sub) {
        SubmitOptions options = new SubmitOptions(sub.blockNum(), sub.label(), sub.after(), sub.requireSyncStart());
        TaskArg[] args = sub.args().stream().map(this::arg).toArray(TaskArg[]::new);
        if (sub.mixed() == null) {
            o.submit(options, kernels.get(sub.kernel()), args);
        } else {
            o.submitMixed(options, lane(sub, 0), lane(sub, 1), lane(sub, 2), args);
        }
    }

    private KernelRef lane(Stmt.Submit sub, int lane) {
        String name = sub.mixed().lane(lane);
        return name == null ? null : kernels.get(name);
    }

    private TaskArg arg(SubmitArg a) {
        return switch (a) {
            case SubmitArg.IndexArg ia -> TaskArg.scalar(ia.value());
            case SubmitArg.FloatArg fa -> TaskArg.scalar(fa.value());
            case SubmitArg.TensorArg ta -> {
                TensorVar t = view(ta.tensor());
                yield switch (ta.direction()) {
                    case INPUT -> TaskArg.in(t);
                    case OUTPUT -> TaskArg.out(t);
                    case INOUT -> TaskArg.inout(t);
                    case OUTPUT_EXISTING -> TaskArg.outExisting(t);
                    case NO_DEP -> TaskArg.noDep(t);
                };
            }
        };
    }

    private TensorVar view(TensorExpr e) {
        return switch (e) {
            case TensorExpr.Ref r -> vars.get(r.name());
            case TensorExpr.Reshape r -> view(r.base()).reshape(r.shape());
            case TensorExpr.Slice s -> view(s.base()).at(s.starts().toArray(new Object[0])).size(s.extents());
        };
    }
}
