package dev.jpto.compiler.ir;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.Kernels;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Checks a program before anything runs it: each kernel ({@link Kernels#validate}: operand indices, ranks, op
 * dtype and tile shape rules), names, shapes, dtypes, directions against the kernels' parameter
 * access, tensors used before they exist or never used, and slices that may leave their tensor (loop variable
 * ranges are bounded by interval arithmetic over the loop bounds, so a slice is accepted only when every
 * iteration stays inside), and kernel loads and stores that may leave the tensors a submit passes
 * ({@link KernelAccessCheck}), and kernels submitted to a core type that cannot run them ({@link CoreTypeRule}).
 * Every finding names the program element ({@link IrError#where()}, with the source line that created it when
 * the caller knows it) and the rule.
 *
 * <p>Lifetime rules for intermediates ({@link Stmt.Alloc}): visible only in the statement list that declares
 * them; produced exactly once, by an OUTPUT argument naming the whole tensor, in the same loop body (an
 * allocation is per iteration); read only after that; and read at least once.
 */
public final class Verifier {
    /**
     * The rule for every name a program or work dir declares: names become file names (kernels/NAME.pto,
     * NAME.npy) and JSON keys, so identifiers only, never a path.
     */
    public static final String IDENTIFIER_RULE = "[A-Za-z_][A-Za-z0-9_]*";
    static final Pattern IDENTIFIER = Pattern.compile(IDENTIFIER_RULE);

    private enum Role { INPUT, OUTPUT, INTERMEDIATE }

    private static final class TensorState {
        final TensorDecl decl;
        final Role role;
        final int loopDepth;
        String producedBy;
        boolean read;
        boolean written;

        TensorState(TensorDecl decl, Role role, int loopDepth) {
            this.decl = decl;
            this.role = role;
            this.loopDepth = loopDepth;
        }
    }

    /** Inclusive range of values a loop variable takes. */
    private record Interval(long lo, long hi) {
    }

    private final Program program;
    private final Function<Object, String> sourceLine;
    private final List<IrError> errors = new ArrayList<>();
    private final Deque<String> path = new ArrayDeque<>();
    private final Map<String, Interval> vars = new LinkedHashMap<>();
    /** Block count of the submit being checked (0 outside one): its block variables' ranges ({@link BlockVars}). */
    private long submitBlocks;
    private final Deque<Map<String, TensorState>> tensorScopes = new ArrayDeque<>();
    private final Map<String, Kernel> kernels = new HashMap<>();
    private final Set<String> validKernels = new HashSet<>();
    private final Set<String> submittedKernels = new HashSet<>();
    private final Set<String> coreTypeFindings = new HashSet<>();
    private int loopDepth;
    private int submitCount;
    /** While checking a mixed submit: how many of its lanes were checked before this one; -1 otherwise. */
    private int mixedLane = -1;
    /** While a mixed lane's arguments are checked: that lane's sub_block_idx; -1 otherwise. */
    private int laneSubBlock = -1;
    /** Labels of the submits met so far in program order (an {@code after} may name only these), and where. */
    private final Map<String, Integer> labels = new LinkedHashMap<>();
    /** Open manual scopes around the statement being checked. */
    private int manualDepth;

    private Verifier(Program program, Function<Object, String> sourceLine) {
        this.program = program;
        this.sourceLine = sourceLine;
    }

    /** Whether {@code name} follows {@link #IDENTIFIER_RULE}. */
    public static boolean isIdentifier(String name) {
        return IDENTIFIER.matcher(name).matches();
    }

    /** All findings; empty when the program is valid. */
    public static List<IrError> check(Program program) {
        return check(program, node -> null);
    }

    /**
     * All findings; {@code sourceLine} gives where a statement or kernel of the program was written (e.g.
     * {@code "ReluDense.java:63"}, null when unknown), and findings about it name that line.
     */
    public static List<IrError> check(Program program, Function<Object, String> sourceLine) {
        Verifier v = new Verifier(program, sourceLine);
        v.run();
        return List.copyOf(v.errors);
    }

    /** Throws {@link VerificationException} listing every finding. */
    public static void verify(Program program) {
        verify(program, node -> null);
    }

    /** As {@link #verify(Program)}, naming source lines as {@link #check(Program, Function)} does. */
    public static void verify(Program program, Function<Object, String> sourceLine) {
        List<IrError> errors = check(program, sourceLine);
        if (!errors.isEmpty()) {
            throw new VerificationException(program.name(), errors);
        }
    }

    /** " at ReluDense.java:63" for a node whose source line is known, else "". */
    private String at(Object node) {
        String line = sourceLine.apply(node);
        return line == null ? "" : " at " + line;
    }

    private void run() {
        path.addLast("program " + program.name());
        if (!IDENTIFIER.matcher(program.name()).matches()) {
            error("program name '" + program.name() + "' must be an identifier (" + IDENTIFIER_RULE + ")");
        }
        Map<String, TensorState> top = new LinkedHashMap<>();
        tensorScopes.push(top);
        declareSignature(program.inputs(), Role.INPUT, "input");
        declareSignature(program.outputs(), Role.OUTPUT, "output");
        if (program.outputs().isEmpty()) {
            error("a program must declare at least one output");
        }
        for (Kernel k : program.kernels()) {
            if (!IDENTIFIER.matcher(k.name()).matches()) {
                error("kernel name '" + k.name() + "' must be an identifier (" + IDENTIFIER_RULE + ")");
            }
            if (kernels.put(k.name(), k) != null) {
                error("kernel '" + k.name() + "' is declared twice" + at(k));
            }
            try {
                Kernels.validate(k);
                validKernels.add(k.name());
            } catch (IllegalArgumentException e) {
                error(e.getMessage());
            }
        }
        block(program.body());
        for (TensorState t : top.values()) {
            switch (t.role) {
                case INPUT -> {
                    if (!t.read) {
                        error("input '" + t.decl.name() + "' is never read by any task (remove it or pass it in)");
                    }
                }
                case OUTPUT -> {
                    if (!t.written) {
                        error("output '" + t.decl.name() + "' is never written by any task "
                                + "(pass it with outExisting or inout)");
                    }
                }
                case INTERMEDIATE -> { }
            }
        }
        for (Kernel k : program.kernels()) {
            if (!submittedKernels.contains(k.name())) {
                error("kernel '" + k.name() + "' is declared but never submitted (remove it)" + at(k));
            }
        }
    }

    private void declareSignature(List<TensorDecl> decls, Role role, String what) {
        for (TensorDecl d : decls) {
            checkDecl(d, what);
            declare(d, role);
        }
    }

    private void checkDecl(TensorDecl d, String what) {
        if (!IDENTIFIER.matcher(d.name()).matches()) {
            error(what + " name '" + d.name() + "' must be an identifier (" + IDENTIFIER_RULE + ")");
        }
        if (d.rank() == 0) {
            error(what + " '" + d.name() + "' must have rank >= 1: shape " + Arrays.toString(d.shape()));
        }
        for (long e : d.shape()) {
            if (e <= 0) {
                error(what + " '" + d.name() + "' must have positive extents: shape " + Arrays.toString(d.shape()));
                break;
            }
        }
    }

    private void declare(TensorDecl d, Role role) {
        if (lookup(d.name()) != null) {
            error("tensor '" + d.name() + "' is declared twice (names are unique in a program)");
            return;
        }
        tensorScopes.peek().put(d.name(), new TensorState(d, role, loopDepth));
    }

    private TensorState lookup(String name) {
        for (Map<String, TensorState> scope : tensorScopes) {
            TensorState t = scope.get(name);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    private void block(List<Stmt> body) {
        Map<String, TensorState> local = new LinkedHashMap<>();
        tensorScopes.push(local);
        List<String> reads = new ArrayList<>();
        for (Stmt s : body) {
            stmt(s);
            if (s instanceof Stmt.Read r && !reads.contains(r.var())) {
                reads.add(r.var());
            }
        }
        reads.forEach(vars::remove); // a read's value is in scope for the rest of its block only
        tensorScopes.pop();
        for (TensorState t : local.values()) {
            if (t.producedBy == null) {
                error("intermediate '" + t.decl.name() + "' is never produced: pass it to a task with out(...)");
            } else if (!t.read) {
                error("intermediate '" + t.decl.name() + "' is produced by " + t.producedBy
                        + " but never read (remove it, or read it in this block)");
            }
        }
    }

    private void stmt(Stmt s) {
        switch (s) {
            case Stmt.For f -> loop(f);
            case Stmt.Scope sc -> {
                boolean manual = sc.kind() == dev.jpto.runtime.ScopeKind.MANUAL;
                path.addLast((manual ? "manual scope" : "scope") + at(sc));
                if (!manual && manualDepth > 0) {
                    error("an auto scope cannot open inside a manual scope (the runtime fails with code 5); make it"
                            + " manual too, or close the manual scope first");
                }
                manualDepth += manual ? 1 : 0;
                block(sc.body());
                manualDepth -= manual ? 1 : 0;
                path.removeLast();
            }
            case Stmt.Alloc a -> {
                path.addLast("alloc " + a.tensor().name() + at(a));
                checkDecl(a.tensor(), "intermediate");
                declare(a.tensor(), Role.INTERMEDIATE);
                path.removeLast();
            }
            case Stmt.Submit sub -> submit(sub);
            case Stmt.Read r -> read(r);
        }
    }

    private void read(Stmt.Read r) {
        path.addLast("read " + r.var() + at(r));
        try {
            if (!IDENTIFIER.matcher(r.var()).matches()) {
                error("read variable '" + r.var() + "' must be an identifier");
            }
            if (vars.containsKey(r.var())) {
                error("read variable '" + r.var() + "' shadows an enclosing loop or read variable of the same name");
            }
            if (r.max() < 0) {
                error("read bound must be >= 0: max=" + r.max());
            }
            String what = "read element " + r.element();
            TensorState t = lookup(r.element().root());
            if (t == null) {
                error(what + ": tensor '" + r.element().root() + "' is not declared here");
            } else {
                long[] shape = shape(what, r.element(), t);
                if (shape != null && Arrays.stream(shape).anyMatch(x -> x != 1)) {
                    error(what + ": a read takes one element, but the view has shape " + Arrays.toString(shape)
                            + "; slice it with extents all 1");
                }
                if (!t.decl.dtype().isInteger()) {
                    error(what + ": dtype " + t.decl.dtype().text() + " is not an integer type (reads give indices)");
                }
                if (t.role == Role.INTERMEDIATE && t.producedBy == null) {
                    error(what + ": intermediate '" + t.decl.name() + "' is read before any task produced it");
                }
                t.read = true;
            }
        } finally {
            path.removeLast();
        }
        vars.put(r.var(), new Interval(0, Math.max(0, r.max())));
    }

    private void loop(Stmt.For f) {
        path.addLast("for " + f.var() + at(f));
        if (!IDENTIFIER.matcher(f.var()).matches()) {
            error("loop variable '" + f.var() + "' must be an identifier");
        }
        if (vars.containsKey(f.var())) {
            error("loop variable '" + f.var() + "' shadows an enclosing loop variable of the same name");
        }
        if (f.step() <= 0) {
            error("loop step must be positive: step=" + f.step());
        }
        Interval start = range(f.start(), "loop start");
        Interval end = range(f.end(), "loop end");
        Interval values = null;
        if (start != null && end != null) {
            if (f.start().isConstant() && f.end().isConstant() && f.start().constant() >= f.end().constant()) {
                error("loop never runs: range(" + f.start() + ", " + f.end() + ")");
            } else if (end.hi() - 1 >= start.lo()) {
                long hi = end.hi() - 1;
                if (f.start().isConstant() && f.end().isConstant() && f.step() > 0) {
                    hi = start.lo() + (hi - start.lo()) / f.step() * f.step();
                }
                values = new Interval(start.lo(), hi);
            }
        }
        boolean shadow = vars.containsKey(f.var());
        Interval saved = vars.get(f.var());
        vars.put(f.var(), values == null ? new Interval(0, 0) : values);
        loopDepth++;
        block(f.body());
        loopDepth--;
        if (shadow) {
            vars.put(f.var(), saved);
        } else {
            vars.remove(f.var());
        }
        path.removeLast();
    }

    /** The range of an index expression, or null (after reporting) when it uses an undefined variable. */
    private Interval range(Affine e, String what) {
        long lo = e.constant();
        long hi = e.constant();
        for (Affine.Term t : e.terms()) {
            Interval v = vars.get(t.var());
            if (v == null && submitBlocks > 0 && t.var().equals(Stmt.Submit.SUB_BLOCK_IDX)) {
                if (laneSubBlock < 0) {
                    error(what + " '" + e + "' uses " + Stmt.Submit.SUB_BLOCK_IDX + ", which only a mixed submit's "
                            + "lanes have (submitMixed)");
                    return null;
                }
                v = new Interval(laneSubBlock, laneSubBlock);
            } else if (v == null && submitBlocks > 0 && BlockVars.is(t.var())) {
                long[] iv = BlockVars.interval(t.var(), submitBlocks);
                v = new Interval(iv[0], iv[1]);
            }
            if (v == null) {
                error(what + " '" + e + "' uses '" + t.var() + "', which is not an enclosing loop variable"
                        + (vars.isEmpty() ? "" : " (in scope: " + String.join(", ", vars.keySet()) + ")"));
                return null;
            }
            long a = Math.multiplyExact(t.coeff(), v.lo());
            long b = Math.multiplyExact(t.coeff(), v.hi());
            lo = Math.addExact(lo, Math.min(a, b));
            hi = Math.addExact(hi, Math.max(a, b));
        }
        return new Interval(lo, hi);
    }

    private void submit(Stmt.Submit sub) {
        submitBlocks = Math.max(1, sub.blockNum());
        try {
            checkSubmit(sub);
        } finally {
            submitBlocks = 0;
        }
    }

    private void checkSubmit(Stmt.Submit sub) {
        submitCount++;
        path.addLast("submit #" + submitCount + " " + sub.kernel() + at(sub));
        try {
            if (sub.mixed() != null) {
                mixedSubmit(sub);
                return;
            }
            Kernel k = kernels.get(sub.kernel());
            if (k == null) {
                error("kernel '" + sub.kernel() + "' is not declared in the program (declared: "
                        + String.join(", ", kernels.keySet()) + ")");
                return;
            }
            submittedKernels.add(k.name());
            launch(sub);
            String coreFinding = CoreTypeRule.violation(k, sub.coreType());
            if (coreFinding != null && coreTypeFindings.add(k.name() + "/" + sub.coreType())) {
                error(coreFinding);
            }
            args(sub, k, -1);
        } finally {
            path.removeLast();
        }
    }

    /**
     * A mixed submit: its kernel name and core type follow from its lanes, every active lane's kernel is declared,
     * fits its core (cube lane AIC, vector lanes AIV) and takes the submit's arguments (checked per lane, with
     * {@code sub_block_idx} that lane's value).
     */
    private void mixedSubmit(Stmt.Submit sub) {
        MixedLanes lanes = sub.mixed();
        launch(sub);
        if (lanes.activeMask() == 0) {
            error("a mixed submit needs at least one lane kernel (aic, aiv0 or aiv1)");
            return;
        }
        mixedLane = 0;
        if (!sub.kernel().equals(lanes.taskName()) || sub.coreType() != CoreType.AIC) {
            error("a mixed submit is named after its lanes and queued on AIC: expected '" + lanes.taskName()
                    + "' on aic, got '" + sub.kernel() + "' on " + sub.coreType());
        }
        for (int lane = 0; lane < 3; lane++) {
            String name = lanes.lane(lane);
            if (name == null) {
                continue;
            }
            String laneName = MixedLanes.LANE_NAMES.get(lane);
            Kernel k = kernels.get(name);
            if (k == null) {
                error("mixed lane " + laneName + ": kernel '" + name + "' is not declared in the program (declared: "
                        + String.join(", ", kernels.keySet()) + ")");
                continue;
            }
            submittedKernels.add(k.name());
            CoreType core = lane == 0 ? CoreType.AIC : CoreType.AIV;
            String coreFinding = CoreTypeRule.violation(k, core);
            if (coreFinding != null && coreTypeFindings.add(k.name() + "/" + core)) {
                error("mixed lane " + laneName + ": " + coreFinding);
            }
            String submitPath = path.removeLast();
            path.addLast(submitPath + " lane " + laneName);
            laneSubBlock = lane == 2 ? 1 : 0;
            try {
                args(sub, k, laneSubBlock);
            } finally {
                laneSubBlock = -1;
                path.removeLast();
                path.addLast(submitPath);
                mixedLane++;
            }
        }
        mixedLane = -1;
    }

    /** The submit's arguments against kernel {@code k}'s parameters; {@code subBlock} is -1 outside a mixed task. */
    private void args(Stmt.Submit sub, Kernel k, int subBlock) {
        int nTensors = k.tensors().size();
        int nScalars = k.scalarParamCount();
        if (sub.args().size() != nTensors + nScalars) {
            error("kernel '" + k.name() + "' takes " + nTensors + " tensor and " + nScalars
                    + " scalar arguments (" + signature(k) + "), got " + sub.args().size());
            return;
        }
        long[][] shapes = new long[nTensors][];
        KernelAccessCheck.Range[] scalars = new KernelAccessCheck.Range[nScalars];
        boolean argsOk = true;
        for (int i = 0; i < sub.args().size(); i++) {
            SubmitArg arg = sub.args().get(i);
            String label = "argument " + i;
            switch (arg) {
                case SubmitArg.TensorArg ta -> {
                    if (i >= nTensors) {
                        argsOk = false;
                        error(label + " is a tensor but kernel parameter " + i + " is scalar '"
                                + k.scalars().get(i - nTensors).name() + "' (" + signature(k) + ")");
                    } else {
                        shapes[i] = tensorArg(label, ta, k.tensors().get(i));
                    }
                }
                case SubmitArg.IndexArg ia -> {
                    if (i < nTensors) {
                        argsOk = false;
                        error(label + " is a scalar but kernel parameter " + i + " is tensor '"
                                + k.tensors().get(i).name() + "' (" + signature(k) + ")");
                    } else {
                        Interval r = blockRange(sub, ia.value(), label, subBlock);
                        scalars[i - nTensors] = r == null ? null : new KernelAccessCheck.Range(r.lo(), r.hi());
                    }
                }
                case SubmitArg.FloatArg fa -> {
                    if (i < nTensors) {
                        argsOk = false;
                        error(label + " is a scalar but kernel parameter " + i + " is tensor '"
                                + k.tensors().get(i).name() + "' (" + signature(k) + ")");
                    } else if (!Double.isFinite(fa.value())) {
                        error(label + " must be finite: " + fa.value());
                    }
                }
            }
        }
        if (argsOk && validKernels.contains(k.name())) {
            for (String finding : KernelAccessCheck.check(k, shapes, scalars)) {
                error(finding);
            }
        }
    }

    /** The block count, the label and the {@code after} list of a submit. */
    private void launch(Stmt.Submit sub) {
        if (sub.blockNum() < 1) {
            error("block_num must be >= 1, got " + sub.blockNum());
        }
        for (String dep : sub.after()) {
            if (!labels.containsKey(dep)) {
                error("after names '" + dep + "', which no earlier submit is labelled"
                        + (labels.isEmpty() ? "" : " (labels so far: " + String.join(", ", labels.keySet()) + ")"));
            }
        }
        if (sub.label() != null) {
            if (!IDENTIFIER.matcher(sub.label()).matches()) {
                error("label '" + sub.label() + "' must be an identifier");
            }
            Integer earlier = labels.putIfAbsent(sub.label(), submitCount);
            if (earlier != null) {
                error("label '" + sub.label() + "' is already used by submit #" + earlier + "; labels are unique");
            }
        }
    }

    /** {@link #range} with the submit's block variables in scope: block_idx in [0, blockNum), block_num itself. */
    private Interval blockRange(Stmt.Submit sub, Affine e, String what, int subBlock) {
        boolean shadowed = vars.containsKey(Stmt.Submit.BLOCK_IDX) || vars.containsKey(Stmt.Submit.BLOCK_NUM)
                || vars.containsKey(Stmt.Submit.SUB_BLOCK_IDX);
        if (shadowed) {
            error("a loop or read variable named " + Stmt.Submit.BLOCK_IDX + ", " + Stmt.Submit.BLOCK_NUM + " or "
                    + Stmt.Submit.SUB_BLOCK_IDX + " hides the block variables of this submit; rename it");
            return null;
        }
        if (subBlock < 0 && e.terms().stream().anyMatch(t -> t.var().equals(Stmt.Submit.SUB_BLOCK_IDX))) {
            error(what + " '" + e + "' uses " + Stmt.Submit.SUB_BLOCK_IDX + ", which only a mixed submit's lanes "
                    + "have (submitMixed)");
            return null;
        }
        int n = Math.max(1, sub.blockNum());
        vars.put(Stmt.Submit.BLOCK_IDX, new Interval(0, n - 1));
        vars.put(Stmt.Submit.BLOCK_NUM, new Interval(n, n));
        if (subBlock >= 0) {
            vars.put(Stmt.Submit.SUB_BLOCK_IDX, new Interval(subBlock, subBlock));
        }
        try {
            return range(e, what);
        } finally {
            vars.remove(Stmt.Submit.BLOCK_IDX);
            vars.remove(Stmt.Submit.BLOCK_NUM);
            vars.remove(Stmt.Submit.SUB_BLOCK_IDX);
        }
    }

    private static String signature(Kernel k) {
        List<String> parts = new ArrayList<>();
        for (TensorParam p : k.tensors()) {
            parts.add(p.access().name().toLowerCase(java.util.Locale.ROOT) + " " + p.name() + ": "
                    + p.dtype().text() + " rank " + p.rank());
        }
        for (int i = 0; i < k.scalarParamCount(); i++) {
            parts.add("scalar " + k.scalars().get(i).name());
        }
        return k.name() + "(" + String.join(", ", parts) + ")";
    }

    /** Checks one tensor argument; returns its shape when known and of the parameter's rank, else null. */
    private long[] tensorArg(String label, SubmitArg.TensorArg ta, TensorParam param) {
        String what = label + " '" + param.name() + "' = " + ta;
        TensorExpr inner = ta.tensor() instanceof TensorExpr.Slice s ? s.base() : ta.tensor();
        if (BlockVars.uses(inner)) {
            error(what + ": block variables may only move the outermost slice of a tensor argument (the task passes "
                    + "the bounding box of its blocks' views); slice the base tensor once");
        }
        TensorState t = lookup(ta.tensor().root());
        if (t == null) {
            error(what + ": tensor '" + ta.tensor().root() + "' is not declared here");
            return null;
        }
        long[] shape = shape(what, ta.tensor(), t);
        if (t.decl.dtype() != param.dtype()) {
            error(what + ": dtype " + t.decl.dtype().text() + " does not match the kernel parameter's "
                    + param.dtype().text());
        }
        if (shape != null && shape.length != param.rank()) {
            error(what + ": rank " + shape.length + " " + Arrays.toString(shape)
                    + " does not match the kernel parameter's rank " + param.rank());
        }
        Direction dir = ta.direction();
        boolean allowed = switch (param.access()) {
            // a mixed task's lane may read what the task writes (a sibling lane, earlier in the block, wrote it)
            case READ -> dir == Direction.INPUT || dir == Direction.NO_DEP || mixedLane >= 0;
            case WRITE -> dir == Direction.OUTPUT || dir == Direction.OUTPUT_EXISTING || dir == Direction.INOUT
                    || dir == Direction.NO_DEP;
            case READ_WRITE -> dir == Direction.INOUT || dir == Direction.NO_DEP;
        };
        if (!allowed) {
            String fix = switch (param.access()) {
                case READ -> "in(...)";
                case WRITE -> "out(...) for a new intermediate, outExisting(...) or inout(...) otherwise";
                case READ_WRITE -> "inout(...)";
            };
            error(what + ": direction " + dir + " does not fit a parameter the kernel accesses as "
                    + param.access() + " (use " + fix + ")");
        }
        boolean writes = param.access() != TensorParam.Access.READ;
        boolean reads = param.access() != TensorParam.Access.WRITE;
        long[] known = shape != null && shape.length == param.rank() ? shape : null;
        if (dir == Direction.OUTPUT) {
            if (mixedLane <= 0) { // the task allocates it once, whichever lanes write it
                produce(what, ta.tensor(), t);
            }
            if (mixedLane >= 0 && reads) {
                t.read = true; // a later lane reads what an earlier one wrote
            }
            return known;
        }
        if (t.role == Role.INTERMEDIATE && t.producedBy == null) {
            error(what + ": intermediate '" + t.decl.name() + "' is used before any task produced it "
                    + "(the first task must pass it with out(...))");
        }
        if (writes && t.role == Role.INPUT) {
            error(what + ": program input '" + t.decl.name() + "' is read-only; write an output or an intermediate");
        }
        if (reads) {
            t.read = true;
        }
        if (writes) {
            t.written = true;
        }
        return known;
    }

    private void produce(String what, TensorExpr expr, TensorState t) {
        if (t.role != Role.INTERMEDIATE) {
            error(what + ": OUTPUT allocates a new buffer and is only for intermediates; "
                    + (t.role == Role.INPUT ? "program input '" + t.decl.name() + "' is read-only"
                    : "program output '" + t.decl.name() + "' is caller-provided: use outExisting(...)"));
            return;
        }
        if (!(expr instanceof TensorExpr.Ref)) {
            error(what + ": OUTPUT must name the whole intermediate '" + t.decl.name() + "', not a view of it");
        }
        if (t.producedBy != null) {
            error(what + ": intermediate '" + t.decl.name() + "' was already produced by " + t.producedBy
                    + "; write it again with inout(...) or outExisting(...)");
            return;
        }
        if (t.loopDepth != loopDepth) {
            error(what + ": intermediate '" + t.decl.name() + "' is allocated outside this loop but produced inside "
                    + "it, so every iteration would allocate it again; move alloc into the loop body");
        }
        t.producedBy = path.peekLast();
        t.written = true;
    }

    /** Shape of a tensor expression, checking ranks, extents and that slices stay inside; null if unknown. */
    private long[] shape(String what, TensorExpr e, TensorState root) {
        return switch (e) {
            case TensorExpr.Ref r -> root.decl.shape();
            case TensorExpr.Slice s -> {
                long[] base = shape(what, s.base(), root);
                long[] ext = s.extents();
                if (base == null) {
                    yield null;
                }
                if (s.starts().size() != base.length || ext.length != base.length) {
                    error(what + ": slice of a rank-" + base.length + " tensor needs " + base.length
                            + " starts and extents, got " + s.starts().size() + " and " + ext.length);
                    yield null;
                }
                for (int d = 0; d < base.length; d++) {
                    if (ext[d] <= 0) {
                        error(what + ": slice extent in dimension " + d + " must be positive: " + ext[d]);
                        continue;
                    }
                    Interval st = range(s.starts().get(d), "slice start");
                    if (st == null) {
                        continue;
                    }
                    if (st.lo() < 0 || st.hi() + ext[d] > base[d]) {
                        error(what + ": slice start '" + s.starts().get(d) + "' in dimension " + d + " ranges over ["
                                + st.lo() + ", " + st.hi() + "], so [start, start+" + ext[d] + ") leaves [0, "
                                + base[d] + ") of shape " + Arrays.toString(base));
                    }
                }
                yield ext;
            }
            case TensorExpr.Reshape r -> {
                long[] base = shape(what, r.base(), root);
                if (!(r.base() instanceof TensorExpr.Ref)) {
                    error(what + ": reshape needs a whole (contiguous) tensor, not a view; reshape before slicing");
                }
                if (base == null) {
                    yield null;
                }
                long n = 1;
                for (long x : r.shape()) {
                    if (x <= 0) {
                        error(what + ": reshape extents must be positive: " + Arrays.toString(r.shape()));
                        yield null;
                    }
                    n = Math.multiplyExact(n, x);
                }
                long m = 1;
                for (long x : base) {
                    m = Math.multiplyExact(m, x);
                }
                if (n != m) {
                    error(what + ": reshape from " + Arrays.toString(base) + " to " + Arrays.toString(r.shape())
                            + " changes the element count (" + m + " to " + n + ")");
                }
                yield r.shape();
            }
        };
    }

    private void error(String what) {
        errors.add(new IrError(String.join("/", path), what));
    }
}
