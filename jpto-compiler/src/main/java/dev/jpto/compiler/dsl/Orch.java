package dev.jpto.compiler.dsl;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.MixedLanes;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.DType;
import dev.jpto.runtime.CoreType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The body of an orchestration function: loops, scopes, intermediates and task submissions, recorded as IR.
 * Loop variables are {@link Affine} handles: {@code i.times(64).plus(j)}.
 */
public final class Orch {
    /** In an index argument of a multi-block submit: the block's index, in [0, block_num). */
    public static final Affine BLOCK_IDX = Affine.var(Stmt.Submit.BLOCK_IDX);
    /** In an index argument of a submit: its block count. */
    public static final Affine BLOCK_NUM = Affine.var(Stmt.Submit.BLOCK_NUM);
    /**
     * In an index argument or slice start of a mixed submit: the vector lane running the kernel (the original's
     * {@code get_sub_block_id}): 0 in the AIV0 lane (and the cube lane), 1 in the AIV1 lane.
     */
    public static final Affine SUB_BLOCK_IDX = Affine.var(Stmt.Submit.SUB_BLOCK_IDX);

    /**
     * {@code block_idx / n} in a multi-block submit's index arguments and slice starts: with {@link #blockMod} the
     * (row, column) of a block in a grid of n columns, as the original's kernels split {@code get_block_idx()}.
     */
    public static Affine blockDiv(long n) {
        return dev.jpto.compiler.ir.BlockVars.div(n);
    }

    /** {@code block_idx % n} (see {@link #blockDiv}). */
    public static Affine blockMod(long n) {
        return dev.jpto.compiler.ir.BlockVars.mod(n);
    }

    /** {@code (block_idx / d) % n}: the middle coordinate of a 3-D grid (see {@link #blockDiv}). */
    public static Affine blockDivMod(long d, long n) {
        return dev.jpto.compiler.ir.BlockVars.divMod(d, n);
    }

    private final ProgramBuilder program;
    private final Deque<List<Stmt>> blocks = new ArrayDeque<>();

    Orch(ProgramBuilder program) {
        this.program = program;
        blocks.push(new ArrayList<>());
    }

    /** An intermediate tensor; the first task that passes it with {@code out(...)} allocates it on the heap ring. */
    public TensorVar alloc(String name, DType dtype, long... shape) {
        TensorDecl decl = new TensorDecl(name, dtype, shape);
        add(new Stmt.Alloc(decl), SourceLine.ofCaller());
        return new TensorVar(new TensorExpr.Ref(name), dtype, shape);
    }

    /** {@code for var in range(start, end, step)}; bounds may use enclosing loop variables. */
    public void forRange(String var, Object start, Object end, long step, Consumer<Affine> body) {
        SourceLine line = SourceLine.ofCaller();
        Affine from = affine("forRange " + var + " start", start);
        Affine to = affine("forRange " + var + " end", end);
        blocks.push(new ArrayList<>());
        body.accept(Affine.var(var));
        List<Stmt> stmts = blocks.pop();
        add(new Stmt.For(var, from, to, step, stmts), line);
    }

    /** {@code for var in range(start, end)}. */
    public void forRange(String var, Object start, Object end, Consumer<Affine> body) {
        forRange(var, start, end, 1, body);
    }

    /** {@code for var in range(end)}. */
    public void forRange(String var, Object end, Consumer<Affine> body) {
        forRange(var, 0L, end, 1, body);
    }

    /**
     * {@code var = read(element)}: reads one integer element of {@code element} (a one-element view) at
     * orchestration time, after the tasks that write it, as the original's {@code pl.read}. The result is an
     * index in [0, max] for loop bounds and slice starts in the rest of this block; {@code max} is the bound
     * the ring planner assumes, and a larger value fails the run.
     */
    public Affine read(String var, TensorVar element, long max) {
        add(new Stmt.Read(var, element.expr(), max), SourceLine.ofCaller());
        return Affine.var(var);
    }

    /** A runtime scope around {@code body}: its tasks leave their ring's scope hold when it closes. */
    public void scope(Runnable body) {
        SourceLine line = SourceLine.ofCaller();
        blocks.push(new ArrayList<>());
        body.run();
        List<Stmt> stmts = blocks.pop();
        add(new Stmt.Scope(stmts), line);
    }

    /**
     * A manual scope around {@code body}: its tasks get no dependency from their tensor arguments, only the
     * labelled submits they name in {@link SubmitOptions#after}. An auto {@link #scope} may not open inside it.
     */
    public void manualScope(Runnable body) {
        SourceLine line = SourceLine.ofCaller();
        blocks.push(new ArrayList<>());
        body.run();
        List<Stmt> stmts = blocks.pop();
        add(new Stmt.Scope(stmts, dev.jpto.runtime.ScopeKind.MANUAL), line);
    }

    /** Submits a task running {@code kernel}; arguments follow the kernel's parameters (tensors, then scalars). */
    public void submit(KernelRef kernel, TaskArg... args) {
        submit(SubmitOptions.NONE, kernel, args);
    }

    /** Submits a task with a block count, a label and explicit dependencies ({@link SubmitOptions}). */
    public void submit(SubmitOptions options, KernelRef kernel, TaskArg... args) {
        if (kernel.owner() != program) {
            throw new IllegalArgumentException("kernel " + kernel.name() + " was registered with another program; "
                    + "register it with this program's kernel(...)");
        }
        List<SubmitArg> list = new ArrayList<>(args.length);
        for (TaskArg a : args) {
            list.add(a.arg());
        }
        add(options.submit(kernel.name(), kernel.coreType(), list), SourceLine.ofCaller());
    }

    /**
     * Submits a mixed task (the original's {@code MixedKernels}): per block, {@code aic} on a cluster's cube core and
     * {@code aiv0}/{@code aiv1} on its two vector cores, all with the same arguments. A null kernel is an inactive
     * lane (at least one must be given); index arguments may use {@link #SUB_BLOCK_IDX} and the block variables.
     * The task completes after {@code blockNum × active lanes} subtasks.
     */
    public void submitMixed(SubmitOptions options, KernelRef aic, KernelRef aiv0, KernelRef aiv1,
                            TaskArg... args) {
        KernelRef[] lanes = {aic, aiv0, aiv1};
        CoreType[] types = {CoreType.AIC, CoreType.AIV, CoreType.AIV};
        for (int lane = 0; lane < lanes.length; lane++) {
            KernelRef k = lanes[lane];
            if (k == null) {
                continue;
            }
            if (k.owner() != program) {
                throw new IllegalArgumentException("kernel " + k.name() + " was registered with another program; "
                        + "register it with this program's kernel(...)");
            }
            if (k.coreType() != types[lane]) {
                throw new IllegalArgumentException("mixed lane " + MixedLanes.LANE_NAMES.get(lane)
                        + " needs a kernel registered for " + types[lane] + ", but " + k.name() + " is registered for "
                        + k.coreType());
            }
        }
        if (aic == null && aiv0 == null && aiv1 == null) {
            throw new IllegalArgumentException("submitMixed needs at least one kernel (aic, aiv0 or aiv1)");
        }
        List<SubmitArg> list = new ArrayList<>(args.length);
        for (TaskArg a : args) {
            list.add(a.arg());
        }
        MixedLanes mixed = new MixedLanes(aic == null ? null : aic.name(),
                aiv0 == null ? null : aiv0.name(), aiv1 == null ? null : aiv1.name());
        add(options.submitMixed(mixed, list), SourceLine.ofCaller());
    }

    private void add(Stmt stmt, SourceLine line) {
        blocks.peek().add(stmt);
        program.recordSource(stmt, line);
    }

    List<Stmt> finish() {
        if (blocks.size() != 1) {
            throw new IllegalStateException("orchestration finished inside a loop or scope body");
        }
        return blocks.peek();
    }

    static Affine affine(String what, Object value) {
        return switch (value) {
            case Integer i -> Affine.of(i);
            case Long l -> Affine.of(l);
            case Affine a -> a;
            case null -> throw new IllegalArgumentException(what + " is null");
            default -> throw new IllegalArgumentException(what + " must be an int, a long or a loop index (Affine): got "
                    + value.getClass().getSimpleName() + " " + value);
        };
    }

    static List<Affine> affines(String what, Object[] values, int rank) {
        if (values.length != rank) {
            throw new IllegalArgumentException(what + " needs " + rank + " indices (one per dimension), got "
                    + values.length);
        }
        List<Affine> out = new ArrayList<>(values.length);
        for (int d = 0; d < values.length; d++) {
            out.add(affine(what + " index " + d, values[d]));
        }
        return out;
    }
}
