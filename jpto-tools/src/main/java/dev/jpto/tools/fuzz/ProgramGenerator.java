package dev.jpto.tools.fuzz;

import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.MixedLanes;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.compiler.run.RingSize;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.isa.op.Fn;
import dev.jpto.lib.gen.SplitMix64;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.Platform;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A random program from a seed: orchestrations of nested scopes (to depth 5), loops (bounds may use enclosing
 * loop variables), intermediates, and tasks passing overlapping slices and reshaped views of the same buffers
 * with every direction; small fp32 tile kernels (elementwise, row reductions, broadcasts, scalar operands) that
 * compute real numbers; and a run config with a random platform, scheduler thread count and ring sizes down to
 * the runtime minimums (or {@code auto}).
 *
 * <p>Every task is checked against {@link OrderingRules} while the program grows, so the program's result is
 * the sequential one whatever the scheduling; the finished program passes the compiler's {@link Verifier}.
 * Kernel values stay integers of magnitude at most {@value #CLAMP} (every step is clamped), so every result
 * is exact in fp32 and the chip must match the sequential reference bit for bit on any engine.
 *
 * <p>Some tasks are launches ({@link #launchCandidate}): SPMD tasks of 2 to 4 blocks and mixed tasks (a cube lane
 * and up to two vector lanes per block), some with {@code require_sync_start}, each block on its own row band.
 *
 * <p>Some scopes that run once become manual scopes with explicit dependencies ({@link ManualScopes}). The
 * program is built through the DSL ({@link DslReplay}) from the IR drafted here.
 */
public final class ProgramGenerator {
    /** Kernel values are clamped to [-CLAMP, CLAMP] after every step. */
    static final double CLAMP = 1024;

    /**
     * Bounds of generated programs.
     *
     * @param maxTasks      tasks of the unrolled program (a soft target, reached or slightly passed)
     * @param maxScopeDepth deepest nested scope
     * @param maxLoopDepth  deepest nested loop
     * @param maxRows       rows of a buffer
     * @param maxCols       columns of a buffer
     */
    public record Options(int maxTasks, int maxScopeDepth, int maxLoopDepth, int maxRows, int maxCols) {
        public Options {
            if (maxTasks < 1 || maxScopeDepth < 0 || maxLoopDepth < 0 || maxRows < 1 || maxCols < 1) {
                throw new IllegalArgumentException("generator options must be positive (depths >= 0): maxTasks="
                        + maxTasks + " maxScopeDepth=" + maxScopeDepth + " maxLoopDepth=" + maxLoopDepth
                        + " maxRows=" + maxRows + " maxCols=" + maxCols);
            }
        }

        public static Options defaults() {
            return new Options(32, 5, 3, 16, 32);
        }
    }

    private enum Kind { INPUT, OUTPUT, INTERMEDIATE }

    /** A tensor a task may name: a program input or output, or an intermediate visible in the current block. */
    private record Buf(String name, long rows, long cols, Kind kind) {
        long numel() {
            return rows * cols;
        }
    }

    private record LoopVar(String name, long lo, long hi) {
    }

    /** One open block: its statements, how it closes, and what it declared. */
    private static final class Frame {
        final List<Stmt> stmts = new ArrayList<>();
        final java.util.function.Function<List<Stmt>, Stmt> wrap;
        final List<Buf> locals = new ArrayList<>();
        final long trips;
        final LoopVar var;
        final int scopeDepth;

        Frame(java.util.function.Function<List<Stmt>, Stmt> wrap, long trips, LoopVar var, int scopeDepth) {
            this.wrap = wrap;
            this.trips = trips;
            this.var = var;
            this.scopeDepth = scopeDepth;
        }
    }

    private final long seed;
    private final Options options;
    private final SplitMix64 rnd;
    private final List<TensorDecl> inputs = new ArrayList<>();
    private final List<TensorDecl> outputs = new ArrayList<>();
    private final List<Buf> globals = new ArrayList<>();
    private final List<Kernel> kernels = new ArrayList<>();
    private final List<CoreType> coreTypes = new ArrayList<>();
    private final Deque<Frame> frames = new ArrayDeque<>();
    private final java.util.Set<String> readIntermediates = new java.util.HashSet<>();
    /** Probability weights of this program's shape, drawn per program so programs differ in character. */
    private final int scopeWeight;
    private final int loopWeight;
    private final int allocWeight;
    private final int target;
    private long expanded;
    private int names;

    private ProgramGenerator(long seed, Options options) {
        this.seed = seed;
        this.options = options;
        this.rnd = SplitMix64.stream(seed, "fuzz.program");
        this.scopeWeight = 1 + (int) rnd.nextBounded(6);
        this.loopWeight = 1 + (int) rnd.nextBounded(4);
        this.allocWeight = 1 + (int) rnd.nextBounded(4);
        this.target = 1 + (int) rnd.nextBounded(options.maxTasks());
    }

    /** The case of {@code seed} with {@link Options#defaults()}. */
    public static FuzzCase generate(long seed) {
        return generate(seed, Options.defaults());
    }

    /** The case of {@code seed}: the same seed gives the same program and config. */
    public static FuzzCase generate(long seed, Options options) {
        ProgramGenerator g = new ProgramGenerator(seed, options);
        Program draft = g.draft();
        List<String> errors = Verifier.check(draft).stream().map(Object::toString).toList();
        if (!errors.isEmpty()) {
            throw new IllegalStateException("generator bug: seed " + seed + " drafted a program the verifier rejects: "
                    + errors);
        }
        OrderingRules.Result rules = OrderingRules.check(draft);
        if (!rules.ok()) {
            throw new IllegalStateException("generator bug: seed " + seed + " breaks an ordering rule: "
                    + rules.violation().orElseThrow());
        }
        // after the rules (which see the automatic scopes): manual scopes keep every order with explicit deps
        draft = ManualScopes.apply(draft, SplitMix64.stream(seed, "fuzz.manual"));
        Program built = DslReplay.build(draft, g.coreTypes);
        if (!built.equals(draft)) {
            throw new IllegalStateException("generator bug: seed " + seed + ": the DSL built another program");
        }
        return new FuzzCase(seed, built, config(seed));
    }

    // ---- the run config ------------------------------------------------------------------------------------

    /**
     * Seeds share their run config in blocks of this many ({@code seed / CONFIG_BLOCK}): a chip rebuilds its rings
     * and scheduler threads when sizes or thread count change, which costs more than a small program's run, so
     * consecutive programs reuse a config as a long-lived worker would; the config is still a function of the seed.
     */
    public static final long CONFIG_BLOCK = 8;

    /** The run config of {@code seed}: a random platform, scheduler thread count and ring sizes. */
    public static RunConfig config(long seed) {
        return config(SplitMix64.stream(Math.floorDiv(seed, CONFIG_BLOCK), "fuzz.config"));
    }

    private static RunConfig config(SplitMix64 r) {
        RunConfig c = RunConfig.defaults()
                .withPlatform(r.nextBounded(2) == 0 ? Platform.A2A3SIM : Platform.A5SIM)
                .withAicpuThreadNum((int) pick(r, 0, 2, 3, 4, 6));
        c = c.withRingTaskWindow(ring(r, new long[] {4, 8, 16, 32, 64, 1024}, new long[] {0, 4, 8, 16, 64}));
        c = c.withRingHeap(ring(r, new long[] {1024, 2048, 4096, 8192, 16384, 65536},
                new long[] {0, 1024, 2048, 4096, 16384}));
        c = c.withRingDepPool(ring(r, new long[] {4, 8, 16, 64, 256}, new long[] {0, 4, 8, 16, 64}));
        return c.validate();
    }

    private static RingSize ring(SplitMix64 r, long[] uniform, long[] perRing) {
        long p = r.nextBounded(100);
        if (p < 35) {
            return new RingSize.Absent();
        }
        if (p < 45) {
            return new RingSize.Auto();
        }
        if (p < 75) {
            return RingSize.of(pick(r, uniform));
        }
        return RingSize.of(pick(r, perRing), pick(r, perRing), pick(r, perRing), pick(r, perRing));
    }

    private static long pick(SplitMix64 r, long... choices) {
        return choices[(int) r.nextBounded(choices.length)];
    }

    // ---- the program ---------------------------------------------------------------------------------------

    private Program draft() {
        int nIn = 1 + (int) rnd.nextBounded(3);
        int nOut = 1 + (int) rnd.nextBounded(3);
        for (int i = 0; i < nIn; i++) {
            declare("x" + i, Kind.INPUT);
        }
        for (int i = 0; i < nOut; i++) {
            declare("y" + i, Kind.OUTPUT);
        }
        frames.push(new Frame(Stmt.Scope::new, 1, null, 0)); // the root block never wraps
        block();
        List<Stmt> body = frames.pop().stmts;
        Program p = trimSignature(program(body));
        if (p.outputs().isEmpty()) {
            // every output got frozen or nothing wrote one: write a fresh output from an input
            TensorDecl in = p.inputs().isEmpty() ? inputs.getFirst() : p.inputs().getFirst();
            long[] s = in.shape();
            TensorDecl out = new TensorDecl("y_last", FP32, s);
            outputs.add(out);
            List<SubmitArg> args = List.of(new SubmitArg.TensorArg(new TensorExpr.Ref(in.name()), Direction.INPUT),
                    new SubmitArg.TensorArg(new TensorExpr.Ref(out.name()), Direction.OUTPUT_EXISTING));
            body = new ArrayList<>(body);
            body.add(submitOf(args, s[0], s[1]));
            p = trimSignature(program(body));
        }
        return p;
    }

    private void declare(String name, Kind kind) {
        long rows = dim(options.maxRows());
        long cols = dim(options.maxCols());
        TensorDecl d = new TensorDecl(name, FP32, new long[] {rows, cols});
        (kind == Kind.INPUT ? inputs : outputs).add(d);
        globals.add(new Buf(name, rows, cols, kind));
    }

    /** An extent in [1, max], biased to powers of two and the maximum (the shapes real programs use). */
    private long dim(int max) {
        return switch ((int) rnd.nextBounded(3)) {
            case 0 -> max;
            case 1 -> Math.min(max, 1L << rnd.nextBounded(6));
            default -> 1 + rnd.nextBounded(max);
        };
    }

    private Program program(List<Stmt> body) {
        return new Program("fuzz_" + Long.toUnsignedString(seed, 16), inputs, outputs, kernels, body);
    }

    /**
     * Drops inputs no task reads and outputs no task uses, and turns outputs that tasks only read into inputs (the
     * verifier wants every input read and every output written).
     */
    static Program trimSignature(Program p) {
        java.util.Set<String> read = new java.util.HashSet<>();
        java.util.Set<String> written = new java.util.HashSet<>();
        Usage.collect(p, read, written);
        List<TensorDecl> in = new ArrayList<>(p.inputs().stream().filter(d -> read.contains(d.name())).toList());
        in.addAll(p.outputs().stream().filter(d -> read.contains(d.name()) && !written.contains(d.name())).toList());
        List<TensorDecl> out = p.outputs().stream().filter(d -> written.contains(d.name())).toList();
        return new Program(p.name(), in, out, p.kernels(), p.body());
    }

    /** The program as it stands, open blocks closed: what the rules check a candidate statement against. */
    private Program snapshot(Stmt candidate) {
        List<Frame> open = new ArrayList<>(frames); // innermost first
        List<Stmt> inner = new ArrayList<>(open.getFirst().stmts);
        if (candidate != null) {
            inner.add(candidate);
        }
        for (int i = 0; i < open.size() - 1; i++) {
            List<Stmt> parent = new ArrayList<>(open.get(i + 1).stmts);
            parent.add(open.get(i).wrap.apply(inner));
            inner = parent;
        }
        return program(inner);
    }

    private boolean budgetLeft() {
        return expanded < target;
    }

    private long trips() {
        long t = 1;
        for (Frame f : frames) {
            t *= f.trips;
        }
        return t;
    }

    private int scopeDepth() {
        return frames.peek().scopeDepth;
    }

    private int loopDepth() {
        int d = 0;
        for (Frame f : frames) {
            if (f.var != null) {
                d++;
            }
        }
        return d;
    }

    private List<LoopVar> loopVars() {
        List<LoopVar> vs = new ArrayList<>();
        for (Frame f : frames) {
            if (f.var != null) {
                vs.add(f.var);
            }
        }
        return vs;
    }

    private List<Buf> visible() {
        List<Buf> all = new ArrayList<>(globals);
        for (Frame f : frames) {
            all.addAll(f.locals);
        }
        return all;
    }

    /** Fills the innermost frame with 1..6 statements (fewer when the task budget runs out). */
    private void block() {
        int n = 1 + (int) rnd.nextBounded(6);
        for (int s = 0; s < n && budgetLeft(); s++) {
            int total = scopeWeight + loopWeight + allocWeight + 6;
            long p = rnd.nextBounded(total);
            if (p < scopeWeight && scopeDepth() < options.maxScopeDepth()) {
                nested(new Frame(Stmt.Scope::new, 1, null, scopeDepth() + 1));
            } else if (p < scopeWeight + loopWeight && loopDepth() < options.maxLoopDepth() && trips() < 16) {
                loop();
            } else if (p < scopeWeight + loopWeight + allocWeight) {
                intermediate();
            } else {
                submit(null);
            }
        }
        // an intermediate must be read: add a reader for any that no task read yet
        for (Buf b : frames.peek().locals) {
            if (!readIntermediates.contains(b.name)) {
                SubmitArg in = new SubmitArg.TensorArg(new TensorExpr.Ref(b.name), Direction.INPUT);
                if (!submit(new Forced(in, b.rows, b.cols))) {
                    throw new IllegalStateException("generator bug: seed " + seed + ": no task can read " + b.name);
                }
            }
        }
    }

    private void nested(Frame f) {
        frames.push(f);
        block();
        Frame done = frames.pop();
        if (!done.stmts.isEmpty()) {
            frames.peek().stmts.add(done.wrap.apply(done.stmts));
        }
    }

    private void loop() {
        String var = "i" + names++;
        long trips = 1 + rnd.nextBounded(4);
        List<LoopVar> outer = loopVars();
        Affine start = Affine.of(0);
        long lo = 0;
        long end = trips;
        if (!outer.isEmpty() && rnd.nextBounded(4) == 0) {
            // a triangular loop: for j in range(i, end)
            LoopVar o = outer.get((int) rnd.nextBounded(outer.size()));
            start = Affine.var(o.name);
            lo = o.lo;
            end = o.hi + 1 + rnd.nextBounded(3);
            trips = end - lo;
        }
        Affine from = start;
        long to = end;
        nested(new Frame(body -> new Stmt.For(var, from, Affine.of(to), 1, body), trips,
                new LoopVar(var, lo, end - 1), scopeDepth()));
    }

    /** An intermediate: alloc, the task that produces it (OUTPUT), and whatever later tasks of the block use it. */
    private void intermediate() {
        String name = "t" + names++;
        long rows = dim(options.maxRows());
        long cols = dim(options.maxCols());
        TensorDecl decl = new TensorDecl(name, FP32, new long[] {rows, cols});
        frames.peek().stmts.add(new Stmt.Alloc(decl));
        Buf buf = new Buf(name, rows, cols, Kind.INTERMEDIATE);
        SubmitArg out = new SubmitArg.TensorArg(new TensorExpr.Ref(name), Direction.OUTPUT);
        if (!submit(new Forced(out, rows, cols))) {
            frames.peek().stmts.removeLast();
            return;
        }
        frames.peek().locals.add(buf);
    }

    /** A first argument the task must have, and the task's tile shape. */
    private record Forced(SubmitArg arg, long rows, long cols) {
    }

    /** Adds one task that keeps the rules (up to 8 tries); false if none was found. */
    private boolean submit(Forced forced) {
        for (int attempt = 0; attempt < 8; attempt++) {
            // the last try for a forced argument is that argument alone (a reader of an intermediate always fits)
            Candidate c = forced != null && attempt == 7
                    ? submitCandidate(List.of(forced.arg), forced.rows, forced.cols) : candidate(forced);
            if (c == null) {
                continue;
            }
            kernels.addAll(c.kernels);
            Program p = snapshot(c.stmt);
            if (OrderingRules.keeps(p)) {
                coreTypes.addAll(c.cores);
                frames.peek().stmts.add(c.stmt);
                expanded += trips();
                List<SubmitArg> args = c.stmt.args();
                for (int i = 0; i < args.size(); i++) {
                    int param = i;
                    if (args.get(i) instanceof SubmitArg.TensorArg ta && c.kernels.stream()
                            .anyMatch(k -> k.tensors().get(param).access() != TensorParam.Access.WRITE)) {
                        readIntermediates.add(ta.tensor().root());
                    }
                }
                return true;
            }
            kernels.subList(kernels.size() - c.kernels.size(), kernels.size()).clear();
        }
        return false;
    }

    /** A drafted task and its kernels (one, or a mixed task's lanes) with the core type of each. */
    private record Candidate(Stmt.Submit stmt, List<Kernel> kernels, List<CoreType> cores) {
        Candidate(Stmt.Submit stmt, Kernel kernel) {
            this(stmt, List.of(kernel), List.of(stmt.coreType()));
        }
    }

    private Candidate candidate(Forced forced) {
        if (forced == null && rnd.nextBounded(5) == 0) {
            Candidate launch = launchCandidate();
            if (launch != null) {
                return launch;
            }
        }
        List<Buf> bufs = visible();
        long rows;
        long cols;
        List<SubmitArg> args = new ArrayList<>();
        if (forced != null) {
            rows = forced.rows;
            cols = forced.cols;
            args.add(forced.arg);
        } else {
            Buf shapeFrom = bufs.get((int) rnd.nextBounded(bufs.size()));
            rows = rnd.nextBounded(2) == 0 ? shapeFrom.rows : 1 + rnd.nextBounded(shapeFrom.rows);
            cols = rnd.nextBounded(2) == 0 ? shapeFrom.cols : 1 + rnd.nextBounded(shapeFrom.cols);
        }
        int nTensors = 1 + (int) rnd.nextBounded(4);
        while (args.size() < nTensors) {
            // most tasks write something: the first argument, usually
            boolean write = args.isEmpty() && rnd.nextBounded(8) != 0;
            SubmitArg a = tensorArg(write ? bufs.stream().filter(b -> b.kind != Kind.INPUT).toList() : bufs,
                    rows, cols, write);
            if (a == null) {
                break;
            }
            args.add(a);
        }
        if (args.isEmpty()) {
            return null;
        }
        return submitCandidate(args, rows, cols);
    }

    private Candidate submitCandidate(List<SubmitArg> tensorArgs, long rows, long cols) {
        List<SubmitArg> args = new ArrayList<>(tensorArgs);
        int nScalars = (int) rnd.nextBounded(3);
        List<LoopVar> vars = loopVars();
        for (int s = 0; s < nScalars; s++) {
            if (!vars.isEmpty() && rnd.nextBounded(2) == 0) {
                LoopVar v = vars.get((int) rnd.nextBounded(vars.size()));
                args.add(new SubmitArg.IndexArg(Affine.var(v.name).plus(rnd.nextBounded(3))));
            } else if (rnd.nextBounded(2) == 0) {
                args.add(new SubmitArg.IndexArg(Affine.of(rnd.nextBounded(5))));
            } else {
                args.add(new SubmitArg.FloatArg(rnd.nextBounded(7) - 3.0));
            }
        }
        KernelDraft draft = kernel("k" + kernels.size(), args, rows, cols, false);
        CoreType core = rnd.nextBounded(4) == 0 ? CoreType.AIC : CoreType.AIV;
        Kernel k = draft.build(core);
        return new Candidate(new Stmt.Submit(k.name(), core, args), k);
    }

    private Stmt.Submit submitOf(List<SubmitArg> args, long rows, long cols) {
        Kernel k = kernel("k" + kernels.size(), args, rows, cols, false).build(CoreType.AIV);
        kernels.add(k);
        coreTypes.add(CoreType.AIV);
        return new Stmt.Submit(k.name(), CoreType.AIV, args);
    }

    /**
     * A launch: {@code blocks} blocks, each working on its own band of {@code band} rows of every tensor argument
     * (the kernels load and store at row {@code block_idx × band}, the last scalar argument), so blocks, which run
     * in any order, never touch each other's elements; every argument names a different buffer, so no band of one
     * argument aliases another's. Half the launches are mixed tasks whose active lanes each run their own kernel on
     * the block's band, in lane order. Null when the visible tensors do not fit.
     */
    private Candidate launchCandidate() {
        List<Buf> bufs = visible();
        Buf shapeFrom = bufs.get((int) rnd.nextBounded(bufs.size()));
        int blocks = 2 + (int) rnd.nextBounded(3);
        if (shapeFrom.rows < blocks) {
            return null;
        }
        long band = 1 + rnd.nextBounded(shapeFrom.rows / blocks);
        long cols = rnd.nextBounded(2) == 0 ? shapeFrom.cols : 1 + rnd.nextBounded(shapeFrom.cols);
        List<SubmitArg> args = new ArrayList<>();
        java.util.Set<String> roots = new java.util.HashSet<>();
        int nTensors = 1 + (int) rnd.nextBounded(3);
        for (int attempt = 0; attempt < 2 * nTensors && args.size() < nTensors; attempt++) {
            boolean write = args.isEmpty();
            SubmitArg a = tensorArg(write ? bufs.stream().filter(b -> b.kind != Kind.INPUT).toList() : bufs,
                    band * blocks, cols, write);
            if (a instanceof SubmitArg.TensorArg ta && roots.add(ta.tensor().root())) {
                args.add(a);
            }
        }
        if (args.isEmpty()) {
            return null;
        }
        boolean mixed = rnd.nextBounded(2) == 0;
        if (rnd.nextBounded(2) == 0) {
            args.add(new SubmitArg.FloatArg(rnd.nextBounded(7) - 3.0));
        }
        if (mixed && rnd.nextBounded(2) == 0) { // a lane-dependent scalar: 1 in the cube and vector-0 lanes, 2 in 1
            args.add(new SubmitArg.IndexArg(Affine.var(Stmt.Submit.SUB_BLOCK_IDX).plus(1)));
        }
        args.add(new SubmitArg.IndexArg(Affine.var(Stmt.Submit.BLOCK_IDX).times(band)));
        boolean sync = rnd.nextBounded(3) == 0; // at most 4 blocks: every platform starts them together
        if (!mixed) {
            CoreType core = rnd.nextBounded(4) == 0 ? CoreType.AIC : CoreType.AIV;
            Kernel k = kernel("k" + kernels.size(), args, band, cols, true).build(core);
            return new Candidate(new Stmt.Submit(k.name(), core, args, blocks, null, List.of(), sync, null), k);
        }
        String[] lanes = new String[3];
        List<Kernel> laneKernels = new ArrayList<>();
        List<CoreType> cores = new ArrayList<>();
        int mask = 1 + (int) rnd.nextBounded(7); // bit 0 cube, bits 1 and 2 the vector lanes; at least one
        for (int lane = 0; lane < 3; lane++) {
            if ((mask >> lane & 1) == 0) {
                continue;
            }
            CoreType core = lane == 0 ? CoreType.AIC : CoreType.AIV;
            Kernel k = kernel("k" + (kernels.size() + laneKernels.size()), args, band, cols, true).build(core);
            lanes[lane] = k.name();
            laneKernels.add(k);
            cores.add(core);
        }
        Stmt.Submit stmt = Stmt.Submit.mixed(new MixedLanes(lanes[0], lanes[1], lanes[2]), args, blocks, null,
                List.of(), sync);
        return new Candidate(stmt, laneKernels, cores);
    }

    /** A {@code rows × cols} view of a visible tensor with a direction that suits it; null if none fits. */
    private SubmitArg tensorArg(List<Buf> bufs, long rows, long cols, boolean write) {
        for (int attempt = 0; attempt < 4 && !bufs.isEmpty(); attempt++) {
            Buf b = bufs.get((int) rnd.nextBounded(bufs.size()));
            TensorExpr base = new TensorExpr.Ref(b.name);
            long br = b.rows;
            long bc = b.cols;
            if (rnd.nextBounded(6) == 0 || br < rows || bc < cols) {
                long[] shape = reshape(b, rows, cols);
                if (shape == null) {
                    continue;
                }
                base = new TensorExpr.Reshape(base, shape);
                br = shape[0];
                bc = shape[1];
            }
            TensorExpr view = br == rows && bc == cols && rnd.nextBounded(2) == 0 ? base
                    : new TensorExpr.Slice(base, List.of(start(br, rows), start(bc, cols)), new long[] {rows, cols});
            return new SubmitArg.TensorArg(view, write ? writeDirection(b.kind) : direction(b.kind));
        }
        return null;
    }

    /** Another 2-D shape of {@code b}'s elements holding a {@code rows × cols} block, or null. */
    private long[] reshape(Buf b, long rows, long cols) {
        List<long[]> fits = new ArrayList<>();
        for (long c = cols; c <= b.numel(); c++) {
            if (b.numel() % c == 0 && b.numel() / c >= rows && c != b.cols) {
                fits.add(new long[] {b.numel() / c, c});
            }
        }
        return fits.isEmpty() ? null : fits.get((int) rnd.nextBounded(fits.size()));
    }

    /** A slice start in a dimension of {@code dim} for an extent {@code ext}: constant or stepping with a loop. */
    private Affine start(long dim, long ext) {
        long room = dim - ext;
        List<LoopVar> vars = loopVars();
        if (!vars.isEmpty() && rnd.nextBounded(2) == 0) {
            LoopVar v = vars.get((int) rnd.nextBounded(vars.size()));
            // step by the extent (disjoint tiles), by one (sliding, overlapping windows) or by two
            long step = switch ((int) rnd.nextBounded(3)) {
                case 0 -> ext;
                case 1 -> 1;
                default -> 2;
            };
            long span = step * v.hi;
            if (span <= room) {
                return Affine.var(v.name).times(step).plus(rnd.nextBounded(room - span + 1));
            }
        }
        return Affine.of(rnd.nextBounded(room + 1));
    }

    private Direction writeDirection(Kind kind) {
        long p = rnd.nextBounded(100);
        return switch (kind) {
            case INPUT -> Direction.INPUT;
            case OUTPUT -> p < 45 ? Direction.INOUT : p < 85 ? Direction.OUTPUT_EXISTING : Direction.NO_DEP;
            case INTERMEDIATE -> p < 65 ? Direction.INOUT : Direction.OUTPUT_EXISTING;
        };
    }

    private Direction direction(Kind kind) {
        long p = rnd.nextBounded(100);
        return switch (kind) {
            case INPUT -> p < 85 ? Direction.INPUT : Direction.NO_DEP;
            case OUTPUT -> p < 35 ? Direction.INOUT : p < 65 ? Direction.OUTPUT_EXISTING : p < 85 ? Direction.INPUT
                    : Direction.NO_DEP;
            case INTERMEDIATE -> p < 40 ? Direction.INPUT : p < 65 ? Direction.INOUT
                    : p < 80 ? Direction.OUTPUT_EXISTING : Direction.NO_DEP;
        };
    }

    // ---- kernels -------------------------------------------------------------------------------------------

    /** A kernel with its vector ops written; {@link #build} finishes it for the core type it is submitted to. */
    private record KernelDraft(KernelBuilder k, KTile acc) {
        /**
         * A cube core runs matmul kernels only (the compiler rejects others there): for AIC the draft gets a
         * matmul whose product is not stored, so the kernel's results stay those of its vector ops.
         */
        Kernel build(CoreType core) {
            if (core == CoreType.AIC) {
                KTile ones = k.tile("ones", FP32, acc.cols(), 1);
                KTile product = k.tile("product", FP32, acc.rows(), 1);
                k.fill(ones, 1).matmul(product, acc, ones);
            }
            return k.build();
        }
    }

    /**
     * A kernel for these arguments: tile shape {@code rows × cols}; reads fold into an accumulator with a
     * random elementwise op, an optional row reduction is broadcast back, scalar parameters are applied, and
     * each written parameter gets the accumulator plus its own offset. Every step is clamped. {@code banded}: the
     * last scalar is the row where the kernel loads and stores (a launch's block band), else row 0.
     */
    private KernelDraft kernel(String name, List<SubmitArg> args, long rows, long cols, boolean banded) {
        KernelBuilder k = KernelBuilder.kernel(name);
        List<KTensor> reads = new ArrayList<>();
        List<KTensor> writes = new ArrayList<>();
        List<KScalar> scalars = new ArrayList<>();
        List<KTensor> params = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i) instanceof SubmitArg.TensorArg ta) {
                TensorParam.Access access = access(ta.direction(), ta.tensor().root());
                KTensor t = switch (access) {
                    case READ -> k.input("a" + i, FP32, 2);
                    case WRITE -> k.output("a" + i, FP32, 2);
                    case READ_WRITE -> k.inout("a" + i, FP32, 2);
                };
                params.add(t);
                if (access != TensorParam.Access.WRITE) {
                    reads.add(t);
                }
                if (access != TensorParam.Access.READ) {
                    writes.add(t);
                }
            }
        }
        for (int i = 0; i < args.size(); i++) {
            if (!(args.get(i) instanceof SubmitArg.TensorArg)) {
                scalars.add(k.scalar("s" + i));
            }
        }
        Object row = banded ? scalars.getLast() : 0;
        int r = Math.toIntExact(rows);
        int c = Math.toIntExact(cols);
        KTile acc = k.tile("acc", FP32, r, c);
        KTile tmp = k.tile("tmp", FP32, r, c);
        k.fill(acc, (double) (rnd.nextBounded(9) - 4));
        for (KTensor t : reads) {
            k.load(tmp, t, row, 0);
            k.binary(pickOp(), acc, acc, tmp);
            clamp(k, acc);
        }
        if (rnd.nextBounded(3) == 0) {
            KTile red = k.tile("red", FP32, r, 1);
            if (rnd.nextBounded(2) == 0) {
                k.rowSum(red, acc);
            } else {
                k.rowMax(red, acc);
            }
            k.rowBroadcast(rnd.nextBounded(2) == 0 ? Fn.Binary.ADD : Fn.Binary.SUB, acc, acc, red);
            clamp(k, acc);
        }
        for (KScalar s : scalars) {
            k.binaryScalar(rnd.nextBounded(2) == 0 ? Fn.Binary.ADD : Fn.Binary.MUL, acc, acc, s);
            clamp(k, acc);
        }
        for (int w = 0; w < writes.size(); w++) {
            k.adds(tmp, acc, w + 1.0);
            k.store(tmp, writes.get(w), row, 0);
        }
        return new KernelDraft(k, acc);
    }

    /** The parameter access a direction needs; NO_DEP writes only program outputs, and only sometimes. */
    private TensorParam.Access access(Direction d, String root) {
        return switch (d) {
            case INPUT -> TensorParam.Access.READ;
            case OUTPUT, OUTPUT_EXISTING -> TensorParam.Access.WRITE;
            case INOUT -> rnd.nextBounded(4) == 0 ? TensorParam.Access.WRITE : TensorParam.Access.READ_WRITE;
            case NO_DEP -> {
                boolean output = outputs.stream().anyMatch(o -> o.name().equals(root));
                long p = rnd.nextBounded(3);
                yield !output || p == 0 ? TensorParam.Access.READ
                        : p == 1 ? TensorParam.Access.WRITE : TensorParam.Access.READ_WRITE;
            }
        };
    }

    private Fn.Binary pickOp() {
        Fn.Binary[] ops = {Fn.Binary.ADD, Fn.Binary.SUB, Fn.Binary.MUL, Fn.Binary.MAX, Fn.Binary.MIN};
        return ops[(int) rnd.nextBounded(ops.length)];
    }

    private static void clamp(KernelBuilder k, KTile t) {
        k.binaryScalar(Fn.Binary.MIN, t, t, CLAMP);
        k.binaryScalar(Fn.Binary.MAX, t, t, -CLAMP);
    }
}
