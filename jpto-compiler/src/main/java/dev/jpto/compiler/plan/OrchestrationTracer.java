package dev.jpto.compiler.plan;

import dev.jpto.compiler.ir.BlockVars;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.chip.HeapLayout;
import dev.jpto.runtime.ScopeKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a program's orchestration without kernels, the way {@code ProgramInterpreter} drives the runtime: loops
 * evaluated, scopes opened and closed (ring = {@code RingField.ringOf(depth)}, the root scope is depth 0),
 * intermediates bound to the task that produced them, and per submit the packed heap bytes, the dependency edges
 * (creator edges and TensorMap lookups, and explicit ones; a manual scope has only the explicit ones) and the oldest
 * still-pinned task of its ring. An SPMD submit is one task, whatever its block count.
 */
final class OrchestrationTracer {
    /** An open scope: its depth and the local id of its first task on its ring (−1 while it has none). */
    private static final class OpenScope {
        final int ring;
        final boolean manual;
        int first = -1;

        OpenScope(int depth, boolean manual) {
            this.ring = RingField.ringOf(depth);
            this.manual = manual;
        }
    }

    /** A produced intermediate: a buffer instance and the task that allocated it. */
    private record Bound(String buffer, long[] shape, long producer) {
    }

    private final Program program;
    private final RingTrace[] rings = new RingTrace[RingField.RINGS];
    private final List<OpenScope> scopes = new ArrayList<>();
    private final Map<String, Long> vars = new HashMap<>();
    private final Map<String, TensorDecl> declared = new HashMap<>();
    private final Map<String, Bound> bound = new HashMap<>();
    private final Map<String, long[]> io = new HashMap<>();
    private final SymbolicTensorMap tensorMap = new SymbolicTensorMap();
    private long instances;
    /** Per submit label: the latest task it produced. */
    private final Map<String, Long> labelled = new HashMap<>();

    private OrchestrationTracer(Program program) {
        this.program = program;
        for (int r = 0; r < rings.length; r++) {
            rings[r] = new RingTrace(r);
        }
        for (TensorDecl d : program.signature()) {
            io.put(d.name(), d.shape());
        }
    }

    /** The per-ring traces of {@code program}'s orchestration (ring 0..3). */
    static RingTrace[] trace(Program program) {
        OrchestrationTracer t = new OrchestrationTracer(program);
        t.scopes.add(new OpenScope(0, false));
        t.block(program.body());
        return t.rings;
    }

    private void block(List<Stmt> body) {
        List<String> names = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> loop(f);
                case Stmt.Scope sc -> {
                    scopes.add(new OpenScope(scopes.size(), sc.kind() == ScopeKind.MANUAL));
                    block(sc.body());
                    scopes.removeLast();
                }
                case Stmt.Alloc a -> {
                    names.add(a.tensor().name());
                    declared.put(a.tensor().name(), a.tensor());
                }
                case Stmt.Submit sub -> submit(sub);
                // the plan assumes every data-dependent count at its bound: an upper bound on what a run holds
                case Stmt.Read r -> {
                    vars.put(r.var(), r.max());
                    reads.add(r.var());
                }
            }
        }
        for (String name : names) {
            declared.remove(name);
            bound.remove(name);
        }
        reads.forEach(vars::remove);
    }

    private void loop(Stmt.For f) {
        long start = f.start().eval(vars);
        long end = f.end().eval(vars);
        if (f.step() <= 0) {
            throw new IllegalArgumentException("loop '" + f.var() + "' has step " + f.step()
                    + "; the planner needs a positive step (the verifier should have rejected this program)");
        }
        for (long v = start; v < end; v += f.step()) {
            vars.put(f.var(), v);
            block(f.body());
        }
        vars.remove(f.var());
    }

    private void submit(Stmt.Submit sub) {
        OpenScope scope = scopes.getLast();
        RingTrace ring = rings[scope.ring];
        int local = ring.tasks();
        long self = ((long) scope.ring << 32) | local;

        long packed = 0;
        Set<Long> producers = new LinkedHashSet<>();
        for (String dep : sub.after()) {
            Long p = labelled.get(dep);
            if (p == null) {
                throw new IllegalArgumentException("program '" + program.name() + "': task '" + sub.kernel()
                        + "' runs after '" + dep + "', which no earlier submit is labelled; verify the program "
                        + "before planning it");
            }
            producers.add(p);
        }
        List<Region> writes = new ArrayList<>();
        List<String> produced = new ArrayList<>();
        for (SubmitArg arg : sub.args()) {
            if (!(arg instanceof SubmitArg.TensorArg(TensorExpr expr, Direction dir))) {
                continue;
            }
            if (dir == Direction.OUTPUT) {
                TensorDecl decl = declared.get(expr.root());
                if (decl == null) {
                    throw unbound(sub, expr.root());
                }
                packed += HeapLayout.outputBytes(Math.multiplyExact(decl.numel(), decl.dtype().byteSize()));
                produced.add(decl.name());
                continue;
            }
            if (scope.manual) {
                continue; // no creator edge, TensorMap lookup or registration in a manual scope
            }
            Bound tmp = bound.get(expr.root());
            if (tmp != null) {
                producers.add(tmp.producer());
            }
            Region region = region(sub, expr);
            if (dir == Direction.INPUT || dir == Direction.INOUT) {
                tensorMap.lookup(region, dir == Direction.INOUT, producers::add);
            }
            if (dir == Direction.INOUT || dir == Direction.OUTPUT_EXISTING) {
                writes.add(region);
            }
        }
        for (Region w : writes) {
            tensorMap.insert(w, self);
        }
        for (String name : produced) {
            TensorDecl decl = declared.get(name);
            bound.put(name, new Bound(name + "#" + instances++, decl.shape(), self));
        }
        producers.remove(self);
        if (sub.label() != null) {
            labelled.put(sub.label(), self);
        }
        if (scope.first < 0) {
            scope.first = local;
        }
        ring.add(HeapLayout.taskBytes(packed), producers.size(), oldestPinned(scope.ring));
    }

    /** Oldest task of {@code ring} still held by an open scope (scopes nest, so the outermost one with tasks). */
    private int oldestPinned(int ring) {
        for (OpenScope s : scopes) {
            if (s.ring == ring && s.first >= 0) {
                return s.first;
            }
        }
        throw new IllegalStateException("no open scope holds a task of ring " + ring);
    }

    private Region region(Stmt.Submit sub, TensorExpr e) {
        return switch (e) {
            case TensorExpr.Ref r -> {
                Bound tmp = bound.get(r.name());
                if (tmp != null) {
                    yield Region.whole(tmp.buffer(), tmp.shape());
                }
                long[] shape = io.get(r.name());
                if (shape == null) {
                    throw unbound(sub, r.name());
                }
                yield Region.whole(r.name(), shape);
            }
            case TensorExpr.Slice s -> {
                Region base = region(sub, s.base());
                long[] ext = s.extents();
                if (!base.exact() || s.starts().size() != base.lo().length) {
                    yield Region.inexact(base.buffer());
                }
                long[] lo = new long[ext.length];
                long[] hi = new long[ext.length];
                for (int d = 0; d < ext.length; d++) {
                    // a slice that moves with the block covers the bounding box of every block's view
                    long[] r = BlockVars.range(s.starts().get(d), vars, Math.max(1, sub.blockNum()));
                    lo[d] = base.lo()[d] + r[0];
                    hi[d] = base.lo()[d] + r[1] + ext[d];
                }
                yield new Region(base.buffer(), lo, hi, true);
            }
            case TensorExpr.Reshape r -> Region.inexact(region(sub, r.base()).buffer());
        };
    }

    private IllegalArgumentException unbound(Stmt.Submit sub, String name) {
        return new IllegalArgumentException("program '" + program.name() + "': task '" + sub.kernel()
                + "' uses tensor '" + name + "', which is not declared or not produced yet at this point; "
                + "verify the program before planning it");
    }
}
