package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.runtime.Direction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a program uses only the orderings the runtime promises, so that its result is the sequential one
 * (spec c.1): the TensorMap orders read-after-write and write-after-write through INOUT and OUTPUT_EXISTING
 * registrations, but not write-after-read, OUTPUT_EXISTING waits only for the buffer's creator, and NO_DEP waits
 * only for the creator. So, element by element, over the concrete execution (loops unrolled):
 * <ul>
 * <li>an element read with INPUT or NO_DEP is never written by a later task (it is <em>frozen</em>);</li>
 * <li>OUTPUT_EXISTING writes only elements no task touched except the buffer's creator;</li>
 * <li>a NO_DEP read sees only data of its creator (or the caller's);</li>
 * <li>a NO_DEP write (only to a program output) seals elements no other task ever touches.</li>
 * </ul>
 * Checks see the state before the task; a task's own reads and writes of one element are ordered by its kernel.
 * The walk also collects {@link Facts} the generator's tests look at.
 */
public final class OrderingRules {
    private static final byte FRESH = 0;
    private static final byte CREATED = 1;
    private static final byte WRITTEN = 2;
    private static final byte FROZEN = 3;
    private static final byte SEALED = 4;

    /**
     * What the concrete execution contains.
     *
     * @param tasks           tasks submitted (loops unrolled)
     * @param maxScopeDepth   deepest runtime scope a task is submitted in (0 = the root scope)
     * @param maxLoopDepth    deepest loop nesting
     * @param directions      every argument direction passed
     * @param overlappingArgs pairs of arguments of different tasks whose views of one buffer overlap partially
     *                        (share some elements without being the same elements)
     * @param reshapedArgs    arguments that view a buffer through a reshape
     */
    public record Facts(int tasks, int maxScopeDepth, int maxLoopDepth, Set<Direction> directions,
                        long overlappingArgs, long reshapedArgs) {
    }

    /** The verdict: the first broken rule (empty when there is none) and the facts of the walk so far. */
    public record Result(Optional<String> violation, Facts facts) {
        public boolean ok() {
            return violation.isEmpty();
        }
    }

    /** One buffer instance: a program tensor, or one allocation of an intermediate. */
    private static final class Buffer {
        final String name;
        final long[] shape;
        final boolean input;
        final boolean output;
        final byte[] state;
        final boolean[] dirty;
        /** Element sets of earlier task arguments, for counting partial overlaps. */
        final List<long[]> touched = new ArrayList<>();

        Buffer(String name, long[] shape, boolean input, boolean output, byte initial) {
            this.name = name;
            this.shape = shape;
            this.input = input;
            this.output = output;
            int n = Math.toIntExact(shape[0] * (shape.length > 1 ? shape[1] : 1));
            this.state = new byte[n];
            this.dirty = new boolean[n];
            java.util.Arrays.fill(state, initial);
        }
    }

    private final Program program;
    private final boolean countOverlaps;
    private final Map<String, Kernel> kernels = new HashMap<>();
    private final Map<String, Buffer> bound = new HashMap<>();
    private final Map<String, TensorDecl> allocs = new HashMap<>();
    private final Map<String, Long> vars = new HashMap<>();
    private final Set<Direction> directions = EnumSet.noneOf(Direction.class);
    private int tasks;
    private int scopeDepth;
    private int maxScopeDepth;
    private int loopDepth;
    private int maxLoopDepth;
    private long overlapping;
    private long reshaped;
    private String violation;

    private OrderingRules(Program program, boolean countOverlaps) {
        this.program = program;
        this.countOverlaps = countOverlaps;
        for (Kernel k : program.kernels()) {
            kernels.put(k.name(), k);
        }
        for (TensorDecl d : program.inputs()) {
            bound.put(d.name(), new Buffer(d.name(), d.shape(), true, false, WRITTEN));
        }
        for (TensorDecl d : program.outputs()) {
            bound.put(d.name(), new Buffer(d.name(), d.shape(), false, true, FRESH));
        }
    }

    /** Walks {@code program} (which should pass the verifier, at least up to the statement being added). */
    public static Result check(Program program) {
        return check(program, true);
    }

    /** Whether {@code program} keeps the rules, without counting overlaps (the generator's fast check). */
    static boolean keeps(Program program) {
        return check(program, false).ok();
    }

    private static Result check(Program program, boolean countOverlaps) {
        OrderingRules r = new OrderingRules(program, countOverlaps);
        r.block(program.body());
        return new Result(Optional.ofNullable(r.violation), new Facts(r.tasks, r.maxScopeDepth, r.maxLoopDepth,
                r.directions.isEmpty() ? EnumSet.noneOf(Direction.class) : EnumSet.copyOf(r.directions),
                r.overlapping, r.reshaped));
    }

    private void block(List<Stmt> body) {
        List<String> declared = new ArrayList<>();
        for (Stmt s : body) {
            if (violation != null) {
                return;
            }
            switch (s) {
                case Stmt.For f -> {
                    loopDepth++;
                    maxLoopDepth = Math.max(maxLoopDepth, loopDepth);
                    long end = f.end().eval(vars);
                    for (long v = f.start().eval(vars); v < end && violation == null; v += f.step()) {
                        vars.put(f.var(), v);
                        block(f.body());
                    }
                    vars.remove(f.var());
                    loopDepth--;
                }
                case Stmt.Scope sc -> {
                    scopeDepth++;
                    block(sc.body());
                    scopeDepth--;
                }
                case Stmt.Alloc a -> {
                    declared.add(a.tensor().name());
                    allocs.put(a.tensor().name(), a.tensor());
                    bound.remove(a.tensor().name());
                }
                case Stmt.Submit sub -> submit(sub);
                case Stmt.Read r -> throw new IllegalArgumentException("the fuzzer's ordering rules cover generated "
                        + "programs, which have no orchestration-time reads: read '" + r.var() + "'");
            }
        }
        for (String name : declared) {
            allocs.remove(name);
            bound.remove(name);
        }
    }

    /** A task argument resolved to the flat element indices of its buffer. */
    private record Access(Buffer buffer, long[] elements, TensorParam.Access access, Direction direction) {
    }

    private void submit(Stmt.Submit sub) {
        tasks++;
        maxScopeDepth = Math.max(maxScopeDepth, scopeDepth);
        for (String name : Lanes.kernels(sub)) {
            if (!kernels.containsKey(name)) {
                violation = "kernel '" + name + "' is not declared";
                return;
            }
        }
        String where = "task " + tasks + " (" + sub.kernel() + ")";
        List<Access> accesses = new ArrayList<>();
        for (int i = 0; i < sub.args().size(); i++) {
            if (!(sub.args().get(i) instanceof SubmitArg.TensorArg ta)) {
                continue;
            }
            directions.add(ta.direction());
            TensorParam.Access access = Lanes.access(sub, kernels, i);
            if (ta.direction() == Direction.OUTPUT) {
                TensorDecl d = allocs.get(ta.tensor().root());
                if (d == null) {
                    violation = where + ": OUTPUT of undeclared intermediate '" + ta.tensor().root() + "'";
                    return;
                }
                accesses.add(new Access(new Buffer(d.name(), d.shape(), false, false, FRESH), null, access,
                        Direction.OUTPUT));
                continue;
            }
            Buffer b = bound.get(ta.tensor().root());
            if (b == null) {
                violation = where + ": tensor '" + ta.tensor().root() + "' is not bound here";
                return;
            }
            if (ta.tensor() instanceof TensorExpr.Slice s && s.base() instanceof TensorExpr.Reshape
                    || ta.tensor() instanceof TensorExpr.Reshape) {
                reshaped++;
            }
            accesses.add(new Access(b, View.of(ta.tensor(), b.shape, vars).elements(), access, ta.direction()));
        }
        for (Access a : accesses) {
            String rule = rule(a);
            if (rule != null) {
                violation = where + ": " + a.direction() + " of '" + a.buffer().name + "' " + rule;
                return;
            }
        }
        for (Access a : accesses) {
            if (a.direction() == Direction.OUTPUT) {
                java.util.Arrays.fill(a.buffer().state, CREATED);
                bound.put(a.buffer().name, a.buffer());
                continue;
            }
            if (countOverlaps) {
                countOverlaps(a);
            }
            boolean writes = a.access() != TensorParam.Access.READ;
            byte after = switch (a.direction()) {
                case INPUT -> FROZEN;
                case INOUT, OUTPUT_EXISTING -> WRITTEN;
                case NO_DEP -> writes ? SEALED : FROZEN;
                case OUTPUT -> CREATED;
            };
            for (long e : a.elements()) {
                int i = (int) e;
                a.buffer().state[i] = (byte) Math.max(a.buffer().state[i], after);
                if (writes && (a.direction() == Direction.INOUT || a.direction() == Direction.OUTPUT_EXISTING)) {
                    a.buffer().dirty[i] = true;
                }
            }
        }
    }

    /** The rule {@code a} breaks given the state before its task, or null. */
    private static String rule(Access a) {
        Buffer b = a.buffer();
        boolean writes = a.access() != TensorParam.Access.READ;
        return switch (a.direction()) {
            case OUTPUT -> null;
            case INPUT -> any(a, s -> s == SEALED, false) ? "reads an element sealed by a NO_DEP write" : null;
            case INOUT -> b.input ? "writes a program input"
                    : any(a, s -> s >= FROZEN, false) ? "writes an element an earlier task read (write-after-read "
                    + "is not ordered) or sealed" : null;
            case OUTPUT_EXISTING -> b.input ? "writes a program input"
                    : any(a, s -> s > CREATED, false) ? "writes an element another task touched (OUTPUT_EXISTING "
                    + "waits only for the creator)" : null;
            case NO_DEP -> {
                if (writes) {
                    yield !b.output ? "writes a buffer other than a program output without dependencies"
                            : any(a, s -> s != FRESH, false) ? "writes an element another task touched" : null;
                }
                yield b.input ? null : any(a, s -> s == SEALED, true)
                        ? "reads an element written by a task other than its creator (NO_DEP waits only for "
                        + "the creator) or sealed" : null;
            }
        };
    }

    private interface StatePredicate {
        boolean test(byte state);
    }

    private static boolean any(Access a, StatePredicate p, boolean orDirty) {
        for (long e : a.elements()) {
            if (p.test(a.buffer().state[(int) e]) || orDirty && a.buffer().dirty[(int) e]) {
                return true;
            }
        }
        return false;
    }

    private void countOverlaps(Access a) {
        long[] mine = a.elements();
        for (long[] other : a.buffer().touched) {
            if (!java.util.Arrays.equals(mine, other) && intersects(mine, other)) {
                overlapping++;
            }
        }
        if (a.buffer().touched.size() < 16) {
            a.buffer().touched.add(mine);
        }
    }

    /** Both arrays are sorted. */
    private static boolean intersects(long[] x, long[] y) {
        int i = 0;
        int j = 0;
        while (i < x.length && j < y.length) {
            if (x[i] == y[j]) {
                return true;
            }
            if (x[i] < y[j]) {
                i++;
            } else {
                j++;
            }
        }
        return false;
    }

    /** A strided view of a rank-1 or rank-2 buffer, as {@code dev.jpto.isa.Tensor} would lay it out. */
    record View(long offset, long[] shape, long[] strides) {
        static View of(TensorExpr e, long[] rootShape, Map<String, Long> vars) {
            return switch (e) {
                case TensorExpr.Ref r -> new View(0, rootShape, contiguous(rootShape));
                case TensorExpr.Reshape r -> new View(0, r.shape(), contiguous(r.shape()));
                case TensorExpr.Slice s -> {
                    View base = of(s.base(), rootShape, vars);
                    long off = base.offset;
                    for (int d = 0; d < base.shape.length; d++) {
                        off += s.starts().get(d).eval(vars) * base.strides[d];
                    }
                    yield new View(off, s.extents(), base.strides);
                }
            };
        }

        private static long[] contiguous(long[] shape) {
            long[] st = new long[shape.length];
            long s = 1;
            for (int d = shape.length - 1; d >= 0; d--) {
                st[d] = s;
                s *= shape[d];
            }
            return st;
        }

        /** Flat indices of the view's elements, sorted. */
        long[] elements() {
            int n = 1;
            for (long x : shape) {
                n = Math.multiplyExact(n, Math.toIntExact(x));
            }
            long[] out = new long[n];
            int k = 0;
            if (shape.length == 1) {
                for (long i = 0; i < shape[0]; i++) {
                    out[k++] = offset + i * strides[0];
                }
            } else {
                for (long r = 0; r < shape[0]; r++) {
                    for (long c = 0; c < shape[1]; c++) {
                        out[k++] = offset + r * strides[0] + c * strides[1];
                    }
                }
            }
            java.util.Arrays.sort(out);
            return out;
        }
    }
}
