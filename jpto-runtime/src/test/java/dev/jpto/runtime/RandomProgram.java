package dev.jpto.runtime;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random orchestration programs whose result is defined by sequential execution, and the sequential
 * reference executor. Generated programs use only the orderings the runtime promises: read-after-write and
 * write-after-write through INOUT; an element read with INPUT is never written again (write-after-read is
 * not tracked by the TensorMap, as on the device), OUTPUT_EXISTING writes only never-touched elements, and a
 * heap output is only used while its producer's scope is open.
 *
 * <p>Some scopes are manual: their tasks name their producers explicitly (every earlier task that touched a buffer
 * they use), and a later auto-scope task names the manual-scope tasks that touched its buffers (their writes are not
 * in the TensorMap). Some tasks run several blocks, some are mixed (AIC + AIV lanes); such a task writes at most one
 * argument, each block and lane its own elements, from a hash of its scalars only.
 */
final class RandomProgram {
    static final long M = 1_000_003;
    static final int ROWS = 8;
    static final int COLS = 8;

    sealed interface Ev {}
    record Open() implements Ev {}
    record OpenManual() implements Ev {}
    record Close() implements Ev {}
    /**
     * @param blocks    block count (1: one block)
     * @param mixedMask active lanes of a mixed task (bit 0 AIC, 1 AIV0, 2 AIV1), 0 for a plain task
     * @param deps      indices of the tasks it names as explicit dependencies
     */
    record Task(int index, CoreType type, List<ArgSpec> args, int blocks, int mixedMask, List<Integer> deps)
            implements Ev {
        boolean partitioned() {
            return blocks > 1 || mixedMask != 0;
        }
    }

    sealed interface ArgSpec {}
    /** A box of host buffer {@code buf} (or, if {@code producer ≥ 0}, of that task's output {@code outArg}). */
    record Slice(int buf, int producer, int outArg, long[] start, long[] ext, Direction dir) implements ArgSpec {}
    record Out(long rows, long cols) implements ArgSpec {}
    record Scal(double v) implements ArgSpec {}

    final int buffers;
    final List<Ev> events;

    private RandomProgram(int buffers, List<Ev> events) {
        this.buffers = buffers;
        this.events = events;
    }

    // ---- generation -------------------------------------------------------------------------------------

    private static final int FRESH = 0;
    private static final int WRITTEN = 1;
    private static final int FROZEN = 2;

    /** Element states of one buffer (host, or a heap output). */
    private static final class Buf {
        final long rows, cols;
        final int[] state;
        final int scopeLevel; // depth of the scope that owns a heap output; −1 for host buffers

        Buf(long rows, long cols, int initial, int scopeLevel) {
            this.rows = rows;
            this.cols = cols;
            this.state = new int[(int) (rows * cols)];
            Arrays.fill(state, initial);
            this.scopeLevel = scopeLevel;
        }

        boolean all(long[] s, long[] e, int... ok) {
            for (long r = s[0]; r < s[0] + e[0]; r++) {
                for (long c = s[1]; c < s[1] + e[1]; c++) {
                    int st = state[(int) (r * cols + c)];
                    boolean good = false;
                    for (int o : ok) {
                        good |= st == o;
                    }
                    if (!good) {
                        return false;
                    }
                }
            }
            return true;
        }

        void set(long[] s, long[] e, int v) {
            for (long r = s[0]; r < s[0] + e[0]; r++) {
                for (long c = s[1]; c < s[1] + e[1]; c++) {
                    state[(int) (r * cols + c)] = Math.max(state[(int) (r * cols + c)], v);
                }
            }
        }
    }

    static RandomProgram generate(long seed, int maxTasks) {
        Random rnd = new Random(seed);
        int nBufs = 1 + rnd.nextInt(3);
        List<Buf> host = new ArrayList<>();
        for (int b = 0; b < nBufs; b++) {
            host.add(new Buf(ROWS, COLS, FRESH, -1));
        }
        Map<Long, Buf> heap = new HashMap<>(); // key: task << 8 | arg
        List<Long> heapKeys = new ArrayList<>();
        List<Ev> ev = new ArrayList<>();
        // per buffer (host index, or a heap output's key + 1000): the tasks that touched it; and the manual ones
        Map<Long, List<Integer>> touched = new HashMap<>();
        List<Integer> manualTasks = new ArrayList<>();
        Deque<Boolean> manual = new ArrayDeque<>();
        int depth = 0;
        int tasks = 0;
        int target = 1 + rnd.nextInt(maxTasks);
        while (tasks < target) {
            int pick = rnd.nextInt(10);
            if ((pick == 0 || depth == 0 && pick < 6) && depth < 5) {
                boolean m = manual.contains(true) || rnd.nextInt(4) == 0; // no auto scope inside a manual one
                ev.add(m ? new OpenManual() : new Open());
                manual.push(m);
                depth++;
                continue;
            }
            if (pick == 1 && depth > 0) {
                ev.add(new Close());
                manual.pop();
                final int closed = depth;
                heapKeys.removeIf(k -> heap.get(k).scopeLevel >= closed);
                depth--;
                continue;
            }
            int repeat = rnd.nextInt(6) == 0 ? 2 + rnd.nextInt(4) : 1; // a loop over the same INOUT block
            List<ArgSpec> args = new ArrayList<>();
            List<Runnable> after = new ArrayList<>();
            int nArgs = 1 + rnd.nextInt(4);
            for (int a = 0; a < nArgs; a++) {
                int kind = rnd.nextInt(10);
                if (kind == 0) {
                    args.add(new Scal(rnd.nextInt(100)));
                    continue;
                }
                if (kind <= 2 && repeat == 1) {
                    long r = 1 + rnd.nextInt(3), c = 1 + rnd.nextInt(8);
                    int idx = args.size();
                    args.add(new Out(r, c));
                    final int taskIdx = tasks;
                    final int lvl = depth;
                    after.add(() -> {
                        long key = ((long) taskIdx << 8) | idx;
                        heap.put(key, new Buf(r, c, WRITTEN, lvl));
                        heapKeys.add(key);
                    });
                    continue;
                }
                boolean useHeap = !heapKeys.isEmpty() && rnd.nextInt(3) == 0;
                Buf buf;
                int bufIdx = -1, producer = -1, outArg = -1;
                if (useHeap) {
                    long key = heapKeys.get(rnd.nextInt(heapKeys.size()));
                    buf = heap.get(key);
                    producer = (int) (key >>> 8);
                    outArg = (int) (key & 0xFF);
                } else {
                    bufIdx = rnd.nextInt(nBufs);
                    buf = host.get(bufIdx);
                }
                long[] s = {rnd.nextInt((int) buf.rows), rnd.nextInt((int) buf.cols)};
                long[] e = {1 + rnd.nextInt((int) (buf.rows - s[0])), 1 + rnd.nextInt((int) (buf.cols - s[1]))};
                Direction dir;
                int d = rnd.nextInt(4);
                if (repeat > 1) {
                    d = 1; // loop bodies read-modify-write
                }
                if (d == 0 && buf.all(s, e, WRITTEN, FROZEN)) {
                    dir = Direction.INPUT;
                } else if (d == 1 && buf.all(s, e, FRESH, WRITTEN)) {
                    dir = Direction.INOUT;
                } else if (d == 2 && buf.all(s, e, FRESH) && repeat == 1) {
                    dir = Direction.OUTPUT_EXISTING;
                } else {
                    dir = Direction.NO_DEP;
                }
                args.add(new Slice(bufIdx, producer, outArg, s, e, dir));
                final Buf fb = buf;
                final Direction fd = dir;
                after.add(() -> {
                    switch (fd) {
                        case INPUT -> fb.set(s, e, FROZEN);
                        case INOUT, OUTPUT_EXISTING -> fb.set(s, e, WRITTEN);
                        default -> { }
                    }
                });
            }
            long written = args.stream().filter(a -> a instanceof Out || a instanceof Slice sl
                    && (sl.dir() == Direction.INOUT || sl.dir() == Direction.OUTPUT_EXISTING)).count();
            int blocks = written <= 1 && rnd.nextInt(4) == 0 ? 2 + rnd.nextInt(3) : 1;
            int mixedMask = written <= 1 && rnd.nextInt(6) == 0 ? (rnd.nextBoolean() ? 7 : 6) : 0;
            boolean inManual = manual.contains(true);
            // Apply state changes only after the whole task is chosen (checks see the state before it).
            for (int rep = 0; rep < repeat; rep++) {
                List<Long> keys = new ArrayList<>();
                for (int a = 0; a < args.size(); a++) {
                    if (args.get(a) instanceof Slice sl && sl.dir() != Direction.NO_DEP) {
                        keys.add(sl.producer() >= 0 ? 1000 + (((long) sl.producer() << 8) | sl.outArg()) : sl.buf());
                    } else if (args.get(a) instanceof Out) {
                        keys.add(1000 + (((long) tasks << 8) | a));
                    }
                }
                java.util.TreeSet<Integer> deps = new java.util.TreeSet<>();
                for (long k : keys) {
                    for (int earlier : touched.getOrDefault(k, List.of())) {
                        if (inManual || manualTasks.contains(earlier)) {
                            deps.add(earlier);
                        }
                    }
                }
                for (long k : keys) {
                    touched.computeIfAbsent(k, x -> new ArrayList<>()).add(tasks);
                }
                if (inManual) {
                    manualTasks.add(tasks);
                }
                ev.add(new Task(tasks++, rnd.nextBoolean() ? CoreType.AIC : CoreType.AIV, List.copyOf(args), blocks,
                        mixedMask, List.copyOf(deps)));
                if (rep == 0) {
                    after.forEach(Runnable::run);
                }
            }
        }
        while (depth-- > 0) {
            ev.add(new Close());
        }
        return new RandomProgram(nBufs, ev);
    }

    // ---- the kernel both executors run ------------------------------------------------------------------

    static TaskBody body(Task t) {
        if (t.partitioned()) {
            return partBody(t);
        }
        return ctx -> {
            long h = t.index() + 1;
            for (int i = 0; i < t.args().size(); i++) {
                ArgSpec a = t.args().get(i);
                if (a instanceof Slice s && (s.dir() == Direction.INPUT || s.dir() == Direction.INOUT)) {
                    Tensor x = ctx.tensor(i);
                    long sum = 0;
                    for (long k = 0; k < x.numel(); k++) {
                        sum += (long) x.getDouble(k);
                    }
                    h = (h * 31 + sum) % M;
                } else if (a instanceof Scal(double v)) {
                    h = (h * 31 + (long) ctx.scalar(i)) % M;
                }
            }
            for (int i = 0; i < t.args().size(); i++) {
                ArgSpec a = t.args().get(i);
                if (a instanceof Out) {
                    Tensor x = ctx.tensor(i);
                    for (long k = 0; k < x.numel(); k++) {
                        x.setDouble(k, (h + k) % M);
                    }
                } else if (a instanceof Slice s && s.dir() == Direction.OUTPUT_EXISTING) {
                    Tensor x = ctx.tensor(i);
                    for (long k = 0; k < x.numel(); k++) {
                        x.setDouble(k, (h + 7 * k) % M);
                    }
                } else if (a instanceof Slice s && s.dir() == Direction.INOUT) {
                    Tensor x = ctx.tensor(i);
                    for (long k = 0; k < x.numel(); k++) {
                        x.setDouble(k, ((long) x.getDouble(k) + h + k) % M);
                    }
                }
            }
        };
    }

    /**
     * A block or lane of a partitioned task: part {@code block × lanes + lane} of {@code blocks × lanes} writes the
     * elements {@code k ≡ part} of its one written argument, from a hash of the task index and its scalars.
     */
    private static TaskBody partBody(Task t) {
        return ctx -> {
            int lanes = t.mixedMask() == 0 ? 1 : Integer.bitCount(t.mixedMask());
            int lane = 0;
            if (t.mixedMask() != 0) {
                int bit = ctx.coreType() == CoreType.AIC ? 0 : 1 + ctx.subBlockIndex();
                lane = Integer.bitCount(t.mixedMask() & ((1 << bit) - 1));
            }
            int parts = t.blocks() * lanes;
            int part = ctx.blockIndex() * lanes + lane;
            long h = t.index() + 1;
            for (int i = 0; i < t.args().size(); i++) {
                if (t.args().get(i) instanceof Scal) {
                    h = (h * 31 + (long) ctx.scalar(i)) % M;
                }
            }
            for (int i = 0; i < t.args().size(); i++) {
                ArgSpec a = t.args().get(i);
                boolean out = a instanceof Out;
                boolean existing = a instanceof Slice s && s.dir() == Direction.OUTPUT_EXISTING;
                boolean inout = a instanceof Slice s && s.dir() == Direction.INOUT;
                if (!out && !existing && !inout) {
                    continue;
                }
                Tensor x = ctx.tensor(i);
                for (long k = part; k < x.numel(); k += parts) {
                    long v = out ? (h + k) % M : existing ? (h + 7 * k) % M : ((long) x.getDouble(k) + h + k) % M;
                    x.setDouble(k, v);
                }
            }
        };
    }

    static Tensor[] hostBuffers(Arena arena, int n, long seed) {
        Tensor[] t = new Tensor[n];
        Random r = new Random(seed ^ 0x5EED);
        for (int b = 0; b < n; b++) {
            t[b] = Tensor.allocate(arena, DType.INT32, ROWS, COLS);
            for (long k = 0; k < t[b].numel(); k++) {
                t[b].setDouble(k, r.nextInt(1000));
            }
        }
        return t;
    }

    // ---- orchestration against the chip -----------------------------------------------------------------

    Orchestration orchestration(Tensor[] host) {
        return orch -> {
            Map<Integer, Long> ids = new HashMap<>();
            Deque<Scope> scopes = new ArrayDeque<>();
            for (Ev e : events) {
                switch (e) {
                    case Open o -> scopes.push(orch.scope());
                    case OpenManual o -> scopes.push(orch.manualScope());
                    case Close c -> scopes.pop().close();
                    case Task t -> {
                        Arg[] args = new Arg[t.args().size()];
                        for (int i = 0; i < args.length; i++) {
                            args[i] = switch (t.args().get(i)) {
                                case Scal(double v) -> Arg.scalar(v);
                                case Out(long r, long c) -> Arg.output(DType.INT32, r, c);
                                case Slice s -> {
                                    Tensor base = s.producer() >= 0 ? orch.output(ids.get(s.producer()), s.outArg())
                                            : host[s.buf()];
                                    yield new Arg.TensorArg(base.slice(s.start(), s.ext()), s.dir());
                                }
                            };
                        }
                        long[] deps = t.deps().stream().mapToLong(ids::get).toArray();
                        Launch launch = new Launch(t.blocks(), false, deps);
                        TaskBody b = body(t);
                        int m = t.mixedMask();
                        ids.put(t.index(), m != 0
                                ? orch.submitMixed(launch, new MixedKernels("k" + t.index(), (m & 1) != 0 ? b : null,
                                        (m & 2) != 0 ? b : null, (m & 4) != 0 ? b : null), args)
                                : orch.submit(launch, "k" + t.index(), t.type(), b, args));
                    }
                }
            }
        };
    }

    // ---- sequential reference ---------------------------------------------------------------------------

    void runReference(Arena arena, Tensor[] host) throws Exception {
        Map<Long, Tensor> outs = new HashMap<>();
        for (Ev e : events) {
            if (!(e instanceof Task t)) {
                continue;
            }
            Tensor[] ts = new Tensor[t.args().size()];
            double[] sc = new double[ts.length];
            for (int i = 0; i < ts.length; i++) {
                switch (t.args().get(i)) {
                    case Scal(double v) -> sc[i] = v;
                    case Out(long r, long c) -> {
                        ts[i] = Tensor.allocate(arena, DType.INT32, r, c);
                        outs.put(((long) t.index() << 8) | i, ts[i]);
                    }
                    case Slice s -> {
                        Tensor base = s.producer() >= 0 ? outs.get(((long) s.producer() << 8) | s.outArg()) : host[s.buf()];
                        ts[i] = base.slice(s.start(), s.ext());
                    }
                }
            }
            int mask = t.mixedMask() == 0 ? 1 : t.mixedMask();
            for (int block = 0; block < t.blocks(); block++) { // blocks in order, each block's lanes in lane order
                for (int bit = 0; bit < 3; bit++) {
                    if ((mask & 1 << bit) == 0) {
                        continue;
                    }
                    final int b = block;
                    final CoreType type = t.mixedMask() == 0 ? t.type() : bit == 0 ? CoreType.AIC : CoreType.AIV;
                    final int sub = Math.max(0, bit - 1);
                    body(t).execute(new TaskContext() {
                        public Tensor tensor(int i) { return ts[i]; }
                        public double scalar(int i) { return sc[i]; }
                        public int argCount() { return ts.length; }
                        public long taskId() { return t.index(); }
                        public String kernelName() { return "k" + t.index(); }
                        public CoreType coreType() { return type; }
                        public int coreId() { return 0; }
                        public int blockIndex() { return b; }
                        public int blockNum() { return t.blocks(); }
                        public int subBlockIndex() { return sub; }
                    });
                }
            }
        }
    }

    int taskCount() {
        return (int) events.stream().filter(e -> e instanceof Task).count();
    }
}
