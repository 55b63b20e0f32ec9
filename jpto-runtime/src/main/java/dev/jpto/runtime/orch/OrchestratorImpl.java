package dev.jpto.runtime.orch;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Launch;
import dev.jpto.runtime.MixedKernels;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Orchestrator;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.ScopeKind;
import dev.jpto.runtime.TaskBody;
import dev.jpto.runtime.dfx.TaskEvents;
import dev.jpto.runtime.ring.Ring;
import dev.jpto.runtime.sched.Diagnostics;
import dev.jpto.runtime.sched.Engine;
import dev.jpto.runtime.tensormap.TensorMap;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * The orchestrator: builds the task graph on one thread. Per submit (spec a.3, b, c.1): pick the ring of the
 * scope depth, reserve a task slot and the packed output heap (waiting, bounded, while the ring is full),
 * find producers (creator edges for buffers the runtime allocated, TensorMap lookups for INPUT/INOUT),
 * register INOUT/OUTPUT_EXISTING as writers, wire fanins onto the producers' fanout lists, then release the
 * readiness guard.
 */
public final class OrchestratorImpl implements Orchestrator {
    public static final int MAX_SCOPE_DEPTH = 64;
    /** {@code PTO2_PACKED_OUTPUT_ALIGN}: each output buffer is rounded up to this. */
    public static final long OUTPUT_ALIGN = 1024;
    /** {@code PTO2_ALIGN_SIZE}: a task's packed outputs are rounded up to this. */
    public static final long TASK_ALIGN = 64;
    /** {@link #claimLocked} results: the producer retired (no edge), completed (edge, satisfied), or waits. */
    private static final int RETIRED = 0;
    private static final int COMPLETED = 1;
    private static final int LINKED = 2;
    private final Engine engine;
    private final Ring[] rings;
    private final TensorMap tmap;
    private RuntimeEnv env;
    private ScopeStats stats;
    private final OwnerMap owners = new OwnerMap(1024);
    private final Reclaimer reclaimer = new Reclaimer(owners);
    private final BackPressure backPressure;
    private final SubmitLog submitLog = new SubmitLog();

    private final int[] scopeBegin = new int[MAX_SCOPE_DEPTH + 1];
    private final String[] scopeSite = new String[MAX_SCOPE_DEPTH + 1];
    /** Per open scope: MANUAL (dependencies only from {@link Launch#deps}). */
    private final boolean[] scopeManual = new boolean[MAX_SCOPE_DEPTH + 1];
    /** A manual scope was opened in this run: its writers are not in the TensorMap. */
    private boolean manualSeen;
    /** The body a mixed task's slot holds: its lanes run from {@link Ring#mixed} instead. */
    private static final TaskBody MIXED_BODY = ctx -> {
        throw new IllegalStateException("a mixed task runs its lanes, not a body");
    };
    private final ScopeHandle[] handles = new ScopeHandle[MAX_SCOPE_DEPTH + 1];
    private int depth = -1;
    private final long[] scopeTasks;
    private int scopeTasksSize;

    private int sinceTensorMapSync;

    private long[] edges = new long[16];
    /** Per argument of the submit in progress: its INOUT lookup took over the entry of its own view. */
    private boolean[] reownedArg = new boolean[8];
    private int edgeN;
    private final TensorMap.Sink waitSink = p -> addEdge(p, Ring.EDGE_WAIT);
    /** DFX hooks of this run, or null (DFX off: every hook site is one null test). */
    private TaskEvents events;
    /** The task and argument a TensorMap lookup runs for, read by {@link #traceSink}. */
    private long lookupTask;
    private int lookupArg;
    private final TensorMap.Sink traceSink = this::traceEdge;
    /** {@link #dropRetiredEdges} for the dep-pool wait (a field: no allocation per submit). */
    private final IntSupplier liveEdges = this::dropRetiredEdges;
    private Thread owner;

    /**
     * Prepares a new run on the calling thread (which becomes the orchestrator thread): empty scopes, fresh
     * reclaim cursors and owner map. The rings, TensorMap and engine are reset by the chip.
     */
    public void reset(RuntimeEnv runEnv, ScopeStats runStats) {
        submitLog.reset();
        this.env = runEnv;
        this.stats = runStats;
        this.events = null;
        this.owner = Thread.currentThread();
        depth = -1;
        manualSeen = false;
        scopeTasksSize = 0;
        reclaimer.reset();
        backPressure.reset(runEnv, owner);
        sinceTensorMapSync = 0;
        owners.clear();
    }

    /** Java heap of an orchestrator over rings of {@code slots} task slots in all: the open scopes' task list. */
    public static long javaHeapBytes(long slots) {
        return slots * Long.BYTES;
    }

    public OrchestratorImpl(Engine engine, TensorMap tmap, RuntimeEnv env, ScopeStats stats) {
        this.engine = engine;
        this.rings = engine.rings;
        this.tmap = tmap;
        this.env = env;
        this.stats = stats;
        this.backPressure = new BackPressure(engine, tmap, reclaimer);
        long total = 0;
        for (Ring r : rings) {
            total += r.window();
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("sum of ring_task_window over the four rings must be <= "
                    + Integer.MAX_VALUE + ": " + total);
        }
        this.scopeTasks = new long[(int) total];
        for (int d = 0; d <= MAX_SCOPE_DEPTH; d++) {
            handles[d] = new ScopeHandle(d);
        }
        this.owner = Thread.currentThread();
    }

    // ---- run --------------------------------------------------------------------------------------------

    /**
     * Runs {@code orchestration} in the root scope (depth 0), ends the root scope, and waits (bounded) until
     * every task completed and every ring is fully reclaimed.
     */
    public void runRoot(Orchestration orchestration) {
        Scope root = openScope("<root>", false);
        try {
            orchestration.orchestrate(this);
        } catch (ChipRuntimeException e) {
            throw engine.latch.inForce(e);
        } catch (Exception e) {
            throw fail(ErrorCode.EXPLICIT_ORCH_FATAL, "the orchestration threw " + e + " at scope depth " + depth
                    + " after " + engine.submitted() + " submitted tasks; fix the orchestration", e);
        }
        if (depth != 0) {
            throw fail(ErrorCode.INVALID_ARGS, "the orchestration returned with " + depth + " scope(s) still open; "
                    + "close every scope (use try-with-resources)", null);
        }
        root.close();
        engine.orchestratorDone();
        backPressure.drain();
    }

    private ChipRuntimeException fail(ErrorCode code, String detail, Throwable cause) {
        return engine.latch.fail(code, detail, cause);
    }

    /** Sets the DFX hooks of this run (null for none); call after {@link #reset}. */
    public void setEvents(TaskEvents runEvents) {
        this.events = runEvents;
        backPressure.setEvents(runEvents);
    }

    /** Peak live tasks per ring ({@code local − last_alive} after each allocation). */
    public long taskWindowMax(int ring) {
        return reclaimer.taskWindowMax(rings[ring]);
    }

    /** Innermost open scope depth, or −1 (for the fatal sample of scope statistics). */
    public int openDepth() {
        return depth;
    }

    // ---- scopes -----------------------------------------------------------------------------------------

    @Override
    public Scope scope() {
        checkThread();
        if (depth >= 0 && scopeManual[depth]) {
            throw fail(ErrorCode.INVALID_ARGS, "auto scope nested inside manual scope is not supported: a scope() was "
                    + "opened at depth " + (depth + 1) + " inside the manual scope at depth " + depth + " after "
                    + engine.submitted() + " submitted tasks; open a manualScope() there, or close the manual scope "
                    + "first", null);
        }
        return openScope(stats == null ? null : ScopeStats.site(), false);
    }

    @Override
    public Scope manualScope() {
        checkThread();
        manualSeen = true;
        return openScope(stats == null ? null : ScopeStats.site(), true);
    }

    @Override
    public ScopeKind scopeKind() {
        return depth >= 0 && scopeManual[depth] ? ScopeKind.MANUAL : ScopeKind.AUTO;
    }

    private Scope openScope(String site, boolean manual) {
        if (depth + 1 > MAX_SCOPE_DEPTH) {
            throw fail(ErrorCode.INVALID_ARGS, "scope depth would exceed " + MAX_SCOPE_DEPTH
                    + " (PTO2_MAX_SCOPE_DEPTH); flatten the nesting of scopes", null);
        }
        depth++;
        scopeManual[depth] = manual;
        scopeBegin[depth] = scopeTasksSize;
        scopeSite[depth] = site;
        if (stats != null) {
            Ring ring = rings[RingField.ringOf(depth)];
            reclaimer.reclaim(ring);
            stats.sample("begin", depth, ring, tmap, site);
        }
        return handles[depth];
    }

    private void closeScope(int d) {
        checkThread();
        if (d != depth) {
            throw fail(ErrorCode.INVALID_ARGS, "scope at depth " + d + " closed while depth " + depth
                    + " is innermost; close scopes in reverse order of opening", null);
        }
        if (stats != null) {
            Ring ring = rings[RingField.ringOf(depth)];
            reclaimer.reclaim(ring);
            stats.sample("end", depth, ring, tmap, scopeSite[depth]);
        }
        engine.flushStaged(); // a scope's ready tasks wait no longer than its end (nor than any orchestrator wait)
        int begin = scopeBegin[depth];
        int consumedRings = 0;
        for (int i = begin; i < scopeTasksSize; i++) {
            long raw = scopeTasks[i];
            if (engine.releaseScope(raw)) {
                consumedRings |= 1 << (int) (raw >>> 32);
            }
        }
        for (Ring ring : rings) {
            if ((consumedRings & (1 << ring.id)) != 0) {
                ring.advance();
            }
        }
        scopeTasksSize = begin;
        depth--;
    }

    @Override
    public int scopeDepth() {
        return depth;
    }

    private final class ScopeHandle implements Scope {
        private final int d;

        ScopeHandle(int d) {
            this.d = d;
        }

        @Override
        public void close() {
            if (engine.latch.failed()) {
                return; // the run is over; the exception in flight says why
            }
            closeScope(d);
        }
    }

    private void checkThread() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("the orchestrator is single-threaded: called from "
                    + Thread.currentThread().getName() + ", owned by " + owner.getName());
        }
    }

    // ---- submit -----------------------------------------------------------------------------------------

    @Override
    public long submit(String kernelName, CoreType coreType, TaskBody body, Arg... args) {
        return submit(Launch.SINGLE, kernelName, coreType, body, args);
    }

    @Override
    public long submit(Launch launch, String kernelName, CoreType coreType, TaskBody body, Arg... args) {
        Objects.requireNonNull(body, "body");
        return submitChecked(launch, kernelName, coreType, body, null, args);
    }

    @Override
    public long submitMixed(Launch launch, MixedKernels kernels, Arg... args) {
        Objects.requireNonNull(kernels, "kernels");
        // queued as AIC: a block holds a whole cluster, which the scheduler thread owning its cube core runs
        return submitChecked(launch, kernels.name(), CoreType.AIC, MIXED_BODY, kernels, args);
    }

    @Override
    public long allocTensors(Arg.Output... outputs) {
        checkThread();
        Objects.requireNonNull(outputs, "outputs");
        if (outputs.length == 0) {
            throw fail(ErrorCode.INVALID_ARGS, "alloc_tensors needs at least one Arg.Output (scope depth " + depth
                    + ", after " + engine.submitted() + " submitted tasks)", null);
        }
        Arg[] args = new Arg[outputs.length];
        System.arraycopy(outputs, 0, args, 0, outputs.length);
        return submitChecked(Launch.SINGLE, ALLOC_KERNEL, CoreType.AIV, ALLOC_BODY, null, args);
    }

    /** Kernel name and body of {@link #allocTensors}' tasks, which complete at submit and never run. */
    public static final String ALLOC_KERNEL = "alloc_tensors";
    private static final TaskBody ALLOC_BODY = ctx -> {
    };

    private long submitChecked(Launch launch, String kernelName, CoreType coreType, TaskBody body, MixedKernels mixed,
                               Arg[] args) {
        checkThread();
        Objects.requireNonNull(launch, "launch");
        Objects.requireNonNull(kernelName, "kernelName");
        Objects.requireNonNull(coreType, "coreType");
        Objects.requireNonNull(args, "args");
        if (engine.latch.failed() || backPressure.cancelled()) {
            throw engine.latch.inForce(null);
        }
        checkLaunch(launch, kernelName, coreType, mixed);
        if (events == null) {
            return submitTask(launch, kernelName, coreType, body, mixed, args, 0);
        }
        long submitStart = System.nanoTime();
        try {
            return submitTask(launch, kernelName, coreType, body, mixed, args, submitStart);
        } catch (ChipRuntimeException e) {
            // the submit that ended the run belongs in the trace too, around the wait that failed
            events.submitFailed(kernelName, submitStart, System.nanoTime(), e.error());
            throw e;
        }
    }

    /**
     * Code 7 for a sync-start block count above the cores that can start together (the vector cores for an AIV
     * task, the clusters for an AIC or mixed one); code 5 for an explicit dependency that names no task submitted
     * earlier in this run.
     */
    private void checkLaunch(Launch launch, String kernelName, CoreType coreType, MixedKernels mixed) {
        if (launch.requireSyncStart()) {
            int limit = mixed == null && coreType == CoreType.AIV ? engine.platform.aivCores()
                    : engine.platform.aicCores();
            if (launch.blockNum() > limit) {
                String shape = mixed != null ? "mixed" : coreType.name();
                throw fail(ErrorCode.REQUIRE_SYNC_START_INVALID, "require_sync_start block_num=" + launch.blockNum()
                        + " > limit=" + limit + " (deadlock guaranteed): task " + nextTaskName() + " kernel '"
                        + kernelName
                        + "' (" + shape + ") on " + engine.platform + ", which has " + limit + " "
                        + (shape.equals("AIV") ? "vector cores" : "clusters") + "; use at most " + limit
                        + " blocks, or drop require_sync_start", null);
            }
        }
        for (int i = 0; i < launch.depCount(); i++) {
            long dep = launch.dep(i);
            int depRing = (int) (dep >>> 32);
            if (dep < 0 || depRing >= rings.length || (int) dep - rings[depRing].tasks.nextLocal() >= 0) {
                throw fail(ErrorCode.INVALID_ARGS, "Arg.set_dependencies(...) requires valid task ids: task "
                        + nextTaskName() + " kernel '" + kernelName + "' names dependency " + dep + " = "
                        + Diagnostics.taskName(dep)
                        + ", which is not the id of a task submitted earlier in this run; pass ids returned by "
                        + "submit", null);
            }
        }
    }

    /** The id the next submit in the current scope gets, for messages about it. */
    private String nextTaskName() {
        int next = RingField.ringOf(depth);
        return Diagnostics.taskName(Ring.taskId(next, rings[next].tasks.nextLocal()));
    }

    /** A checked submit; {@code submitStart} is when it began (0 when no {@link TaskEvents} are recorded). */
    private long submitTask(Launch launch, String kernelName, CoreType coreType, TaskBody body, MixedKernels mixed,
                            Arg[] args, long submitStart) {
        int r = RingField.ringOf(depth);
        Ring ring = rings[r];
        boolean manual = scopeManual[depth];
        long inScope = scopeTasksSize - scopeBegin[depth];
        if (inScope >= ring.window() - 1) {
            throw engine.latch.failOnRing(ErrorCode.SCOPE_DEADLOCK, "Scope Deadlock Detected! (ring " + r
                    + ") the scope at depth " + depth + " already holds " + inScope + " tasks, and a task window of "
                    + ring.window() + " admits at most " + (ring.window() - 1) + " live tasks while a scope's tasks "
                    + "stay live until the scope ends (task " + Diagnostics.taskName(Ring.taskId(r,
                    ring.tasks.nextLocal())) + " kernel '" + kernelName + "'); split the scope into smaller scopes",
                    AllocatorErrors.taskWindow(ring, inScope + 1, env.ringTaskWindow()));
        }
        if (scopeTasksSize >= scopeTasks.length) {
            throw fail(ErrorCode.SCOPE_TASKS_OVERFLOW, "scope_tasks buffer saturated at " + scopeTasks.length
                    + " entries (all rings full); close scopes earlier", null);
        }
        int nTensors = 0;
        int nOutputs = 0;
        long heapBytes = 0;
        int registrations = 0;
        for (int i = 0; i < args.length; i++) {
            Arg a = args[i];
            if (a == null) {
                throw new NullPointerException("argument " + i + " of kernel '" + kernelName + "' is null");
            }
            if (a instanceof Arg.Output o) {
                nOutputs++;
                heapBytes += align(Math.max(1, o.byteSize()), OUTPUT_ALIGN);
            } else if (a instanceof Arg.TensorArg ta) {
                nTensors++;
                Direction d = ta.direction();
                if (d == Direction.INOUT || d == Direction.OUTPUT_EXISTING) {
                    registrations++;
                    if (ta.tensor().rank() > TensorMap.MAX_DIMS) {
                        throw fail(ErrorCode.INVALID_ARGS, "argument " + i + " of kernel '" + kernelName + "' has rank "
                                + ta.tensor().rank() + "; at most " + TensorMap.MAX_DIMS + " dimensions are supported",
                                null);
                    }
                }
            }
        }
        heapBytes = align(heapBytes, TASK_ALIGN);

        // 1. task slot + heap (back-pressure).
        long heapOffset = backPressure.allocTask(ring, heapBytes, kernelName, depth);
        long heapUsed = stats == null ? 0 : ring.heap.used(); // before later waits reclaim: the high-water point
        int local = ring.tasks.take();
        long raw = Ring.taskId(r, local);
        int slot = ring.slotOf(local);
        ring.initSlot(slot, raw, depth);
        ring.setHeapEnd(slot, heapOffset + heapBytes);
        ring.args[slot] = args;
        ring.setKernel(slot, body, kernelName);
        ring.setCoreType(slot, coreType);
        if (launch.blockNum() > 1 || mixed != null) {
            ring.setLaunch(slot, launch.blockNum(), mixed == null ? 1 : mixed.lanes(), mixed);
        }
        ring.publishCurrent(local + 1);
        submitLog.begin(raw, kernelName, coreType, launch.blockNum());
        if (nOutputs > 0) {
            placeOutputs(ring, slot, raw, heapOffset, args); // entries of retired tasks were cleared by reclaim
        }
        if (events != null) {
            events.submitted(raw, kernelName, coreType, depth, manual ? ScopeKind.MANUAL : ScopeKind.AUTO,
                    launch.blockNum(), launch.requireSyncStart(), mixed == null ? 0 : mixed.activeMask(), args,
                    ring.outputs[slot]);
        }

        // 2. dependencies: creator edges and TensorMap lookups. A stale (lower) last_alive only keeps retired
        // entries visible a little longer, and edges to retired producers are dropped at claim time.
        if (nTensors > 0 && ++sinceTensorMapSync >= BackPressure.PUBLISH_INTERVAL) {
            sinceTensorMapSync = 0;
            syncTensorMap(r, slot);
        }
        edgeN = 0;
        int inPlace = 0;
        addExplicitDeps(launch, raw);
        if (manual) {
            registrations = 0; // a manual scope neither reads nor writes the TensorMap
        } else if (nTensors > 0) {
            if (reownedArg.length < args.length) {
                reownedArg = new boolean[args.length];
            }
            for (int i = 0; i < args.length; i++) {
                if (args[i] instanceof Arg.TensorArg(Tensor t, Direction d)) {
                    long creator = owners.size() == 0 ? OwnerMap.NONE : owners.get(t.bufferAddress());
                    if (creator != OwnerMap.NONE && live(creator)) {
                        addEdge(creator, Ring.EDGE_WAIT | Ring.EDGE_RETAIN);
                        if (events != null) {
                            events.edge(creator, raw, i, TaskEvents.SOURCE_CREATOR, Ring.EDGE_WAIT | Ring.EDGE_RETAIN,
                                    -1);
                        }
                    }
                    if (d == Direction.INPUT || d == Direction.INOUT) {
                        lookupTask = raw;
                        lookupArg = i;
                        TensorMap.Sink sink = events == null ? waitSink : traceSink;
                        reownedArg[i] = tmap.lookup(t, d == Direction.INOUT, raw, sink);
                        if (reownedArg[i]) {
                            inPlace++;
                        }
                    }
                }
            }
        }

        logProducers(ring, slot, raw, args, manual ? 0 : nTensors, nOutputs);

        // 3. register writers (STEP 4); an INOUT whose lookup took over its own view's entry is registered already.
        if (registrations > inPlace) {
            backPressure.ensureTensorMap(registrations - inPlace, raw, kernelName, depth);
            for (int i = 0; i < args.length; i++) {
                if (args[i] instanceof Arg.TensorArg(Tensor t, Direction d)
                        && (d == Direction.INOUT && !reownedArg[i] || d == Direction.OUTPUT_EXISTING)) {
                    tmap.insert(t, raw);
                }
            }
        }

        // 4. wire fanins (STEP 6) and release the guard.
        boolean ready;
        if (edgeN > 0) {
            backPressure.ensureDepPool(ring, edgeN, liveEdges, raw, kernelName); // may drop edges to retired producers
        }
        if (edgeN > 0) {
            ring.setFaninCount(slot, edgeN + 1);
            long depTop = ring.deps.top();
            int satisfied = wire(ring, raw);
            ring.setDepMark(slot, ring.deps.top());
            // No fanout node was linked: no other thread can add to this task's fanin, so no atomic is needed.
            ready = ring.deps.top() == depTop ? ring.satisfyUnshared(slot, satisfied + 1)
                    : ring.addFanin(slot, satisfied + 1);
        } else {
            ring.setFaninCount(slot, 1);
            ring.setDepMark(slot, ring.deps.top());
            ready = ring.satisfyUnshared(slot, 1);
        }
        scopeTasks[scopeTasksSize++] = raw;
        engine.countSubmitted();
        if (body == ALLOC_BODY) {
            completeAllocation(raw, ready);
        } else if (ready) {
            engine.stageReady(raw, coreType);
        }
        if (stats != null) {
            stats.occupancy(r, heapUsed, ring.tasks.active(reclaimer.reclaimedUpTo(r)), ring.deps.used());
        }
        if (events != null) {
            events.submitDone(raw, submitStart, System.nanoTime());
        }
        return raw;
    }

    /**
     * STEP 1: explicit dependencies, WAIT|RETAIN (valid ids were checked before the slot was taken); producers
     * already retired are skipped, as ids below the producer ring's {@code last_task_alive} are on the device.
     */
    private void addExplicitDeps(Launch launch, long raw) {
        for (int i = 0; i < launch.depCount(); i++) {
            long dep = launch.dep(i);
            submitLog.explicit(dep);
            if (live(dep)) {
                addEdge(dep, Ring.EDGE_WAIT | Ring.EDGE_RETAIN);
                if (events != null) {
                    events.edge(dep, raw, -1, TaskEvents.SOURCE_EXPLICIT, Ring.EDGE_WAIT | Ring.EDGE_RETAIN, -1);
                }
            }
        }
    }

    /**
     * An {@link #allocTensors} task completes at submit, on this thread, without a core (the original completes its
     * hidden alloc task inline). Its explicit producers are none, so it is always ready here.
     */
    private void completeAllocation(long raw, boolean ready) {
        if (!ready) {
            throw new IllegalStateException("an alloc_tensors task has no producer, yet was not ready");
        }
        engine.completeInline(raw);
    }

    /**
     * Records the task's producers for the device estimate from the program alone (not the live edges above, which
     * depend on which producers the host has retired): every earlier write its inputs overlap; then its writes.
     */
    private void logProducers(Ring ring, int slot, long raw, Arg[] args, int nTensors, int nOutputs) {
        if (nTensors > 0) {
            for (Arg a : args) {
                if (a instanceof Arg.TensorArg(Tensor t, Direction d)
                        && (d == Direction.INPUT || d == Direction.INOUT)) {
                    submitLog.read(t);
                }
            }
            for (Arg a : args) {
                if (a instanceof Arg.TensorArg(Tensor t, Direction d)
                        && (d == Direction.INOUT || d == Direction.OUTPUT_EXISTING)) {
                    submitLog.write(raw, t);
                }
            }
        }
        if (nOutputs > 0) {
            Tensor[] outs = ring.outputs[slot];
            for (int i = 0; i < args.length; i++) {
                if (args[i] instanceof Arg.Output) {
                    submitLog.created(raw, outs[i]);
                }
            }
        }
    }

    /** The tasks submitted in the current (or last) run, for the device estimate; read after the run. */
    public SubmitLog submitLog() {
        return submitLog;
    }

    @Override
    public long readScalar(Tensor element) {
        checkScalarAccess("readScalar", element);
        edgeN = 0;
        long creator = owners.size() == 0 ? OwnerMap.NONE : owners.get(element.bufferAddress());
        if (creator != OwnerMap.NONE && live(creator)) {
            addEdge(creator, Ring.EDGE_WAIT);
        }
        tmap.lookup(element, false, waitSink);
        if (manualSeen) {
            addLiveUsers(element, false); // manual-scope writers are not in the TensorMap
        }
        backPressure.awaitCompleted(edges, edgeN, "readScalar", element);
        edgeN = 0;
        return element.dtype().loadLong(element.buffer(), element.byteOffsetOfFlat(0));
    }

    @Override
    public void writeScalar(Tensor element, long value) {
        checkScalarAccess("writeScalar", element);
        edgeN = 0;
        // Readers too: the TensorMap tracks no reader, and one submitted before this write must not see it.
        addLiveUsers(element, true);
        backPressure.awaitCompleted(edges, edgeN, "writeScalar", element);
        edgeN = 0;
        element.dtype().storeLong(element.buffer(), element.byteOffsetOfFlat(0), value);
    }

    private void checkScalarAccess(String what, Tensor element) {
        checkThread();
        Objects.requireNonNull(element, "element");
        if (element.numel() != 1 || !element.dtype().isInteger()) {
            throw new IllegalArgumentException(what + " needs a one-element view of an integer tensor, got "
                    + element + "; slice the element out (extents all 1) of an int8/16/32/64 or bool tensor");
        }
        if (engine.latch.failed() || backPressure.cancelled()) {
            throw engine.latch.inForce(null);
        }
    }

    /**
     * Adds a WAIT edge to every live task whose arguments name {@code element}'s buffer: the ones that write it
     * (INOUT, OUTPUT_EXISTING, or it is their OUTPUT), and with {@code readers} every other one. Conservative (any
     * view of the buffer counts) and a scan of the live tasks: for the rare orchestration-time access only.
     */
    private void addLiveUsers(Tensor element, boolean readers) {
        long addr = element.bufferAddress();
        for (Ring ring : rings) {
            for (int local = ring.lastTaskAlive(); local - ring.tasks.nextLocal() < 0; local++) {
                long raw = Ring.taskId(ring.id, local);
                int slot = ring.slotOf(local);
                Arg[] a = ring.args[slot];
                if (ring.taskIdAt(slot) != raw || a == null || ring.state(slot) != Ring.PENDING) {
                    continue;
                }
                Tensor[] outs = ring.outputs[slot];
                for (int i = 0; i < a.length; i++) {
                    boolean uses = switch (a[i]) {
                        case Arg.TensorArg(Tensor t, Direction d) -> t.bufferAddress() == addr
                                && (readers || d == Direction.INOUT || d == Direction.OUTPUT_EXISTING);
                        case Arg.Output o -> outs != null && outs[i] != null && outs[i].bufferAddress() == addr;
                        case Arg.ScalarArg s -> false;
                    };
                    if (uses) {
                        addEdge(raw, Ring.EDGE_WAIT);
                        break;
                    }
                }
            }
        }
    }

    private static long align(long v, long a) {
        return (v + a - 1) & -a;
    }

    private boolean live(long raw) {
        Ring r = rings[(int) (raw >>> 32)];
        return (int) raw - r.lastTaskAlive() >= 0 && (int) raw - r.tasks.nextLocal() < 0;
    }

    /** Keeps only the edges whose producer is still live; returns how many are left. */
    private int dropRetiredEdges() {
        int n = 0;
        for (int i = 0; i < edgeN; i++) {
            if (live(edges[i] & Ring.EDGE_ID_MASK)) {
                edges[n++] = edges[i];
            }
        }
        edgeN = n;
        return n;
    }

    private void traceEdge(long producer) {
        addEdge(producer, Ring.EDGE_WAIT);
        events.edge(producer, lookupTask, lookupArg, TaskEvents.SOURCE_TENSORMAP, Ring.EDGE_WAIT, tmap.lastOverlap());
    }

    private void addEdge(long producer, long flags) {
        for (int i = 0; i < edgeN; i++) {
            if ((edges[i] & Ring.EDGE_ID_MASK) == producer) {
                edges[i] |= flags;
                return;
            }
        }
        if (edgeN == edges.length) {
            edges = java.util.Arrays.copyOf(edges, edgeN * 2);
        }
        edges[edgeN++] = producer | flags;
    }

    /**
     * Claims each producer under its lock (spec a.5): a producer that retired meanwhile is dropped; a
     * completed one counts as satisfied; a running or pending one gets a node on its fanout list. RETAIN edges
     * pin the producer ({@code fanout_count++}) until this task completes. WAIT-only edges take no pin:
     * simpler pins them at claim and unpins at wiring because it claims and links in separate steps; here
     * both happen in one hold of the lock, so the net-zero pin is skipped.
     */
    private int wire(Ring ring, long raw) {
        int slot = ring.slotOf(raw);
        int satisfied = 0;
        for (int i = 0; i < edgeN; i++) {
            long e = edges[i];
            long p = e & Ring.EDGE_ID_MASK;
            boolean retain = (e & Ring.EDGE_RETAIN) != 0;
            Ring pr = rings[(int) (p >>> 32)];
            int ps = pr.slotOf(p);
            // Lock-free for a producer already done: COMPLETED and CONSUMED are final while the slot holds
            // this task, and only this thread reuses slots. A RETAIN edge must pin it under the lock.
            int seen = pr.taskIdAt(ps) != p ? Ring.CONSUMED : pr.state(ps);
            int claim = seen == Ring.CONSUMED ? RETIRED
                    : seen == Ring.COMPLETED && !retain ? COMPLETED : claimLocked(ring, raw, pr, ps, p, retain);
            if (claim != LINKED) {
                satisfied++;
            }
            if (claim != RETIRED) {
                recordFanin(ring, slot, raw, e);
            }
        }
        return satisfied;
    }

    /** Claims producer {@code p} (in {@code pr}'s slot {@code ps}) for consumer {@code raw} under the producer's lock. */
    private static int claimLocked(Ring ring, long raw, Ring pr, int ps, long p, boolean retain) {
        pr.lock(ps);
        int state = pr.state(ps);
        if (pr.taskIdAt(ps) != p || state == Ring.CONSUMED) {
            pr.unlock(ps);
            return RETIRED;
        }
        if (retain) {
            pr.addFanoutLocked(ps);
        }
        if (state == Ring.COMPLETED) {
            pr.unlock(ps);
            return COMPLETED;
        }
        if (pr.addInlineFanoutLocked(ps, raw)) {
            ring.deps.reserve();
        } else {
            pr.setFanoutHead(ps, ring.deps.alloc(raw, pr.fanoutHead(ps)));
        }
        pr.unlock(ps);
        return LINKED;
    }

    /** Stores a claimed edge: inline, or in the ring's fanin spill pool past the inline cap (spec b.5). */
    private void recordFanin(Ring ring, int slot, long raw, long edge) {
        if ((edge & Ring.EDGE_RETAIN) != 0) {
            ring.addRetain(slot);
        }
        if (ring.addFaninInline(slot, edge)) {
            return;
        }
        backPressure.ensureFaninSpill(ring, raw);
        ring.addFaninSpilled(slot, edge);
    }

    private void placeOutputs(Ring ring, int slot, long raw, long heapOffset, Arg[] args) {
        Tensor[] outs = ring.outputs[slot];
        boolean any = false;
        long off = heapOffset;
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Arg.Output o) {
                if (!any) {
                    any = true;
                    if (outs == null || outs.length < args.length) {
                        outs = new Tensor[args.length];
                        ring.outputs[slot] = outs;
                    }
                }
                long bytes = o.byteSize();
                MemorySegment seg = ring.region.segment().asSlice(off, bytes);
                Tensor t = Tensor.wrap(seg, o.dtype(), o.shape());
                outs[i] = t;
                owners.put(seg.address(), raw);
                off += align(Math.max(1, bytes), OUTPUT_ALIGN);
            } else if (outs != null && i < outs.length) {
                outs[i] = null;
            }
        }
        if (outs != null) {
            for (int i = args.length; i < outs.length; i++) {
                outs[i] = null;
            }
        }
    }

    @Override
    public Tensor output(long taskId, int argIndex) {
        checkThread();
        int r = (int) (taskId >>> 32);
        if (r < 0 || r >= rings.length) {
            throw new IllegalArgumentException("task id " + taskId + " names ring " + r + "; rings are 0..3");
        }
        Ring ring = rings[r];
        int slot = ring.slotOf(taskId);
        if (ring.taskIdAt(slot) != taskId || !live(taskId)) {
            throw new IllegalArgumentException("task " + Diagnostics.taskName(taskId)
                    + " is not live (never submitted, or already reclaimed); read outputs while their scope is open");
        }
        Tensor[] outs = ring.outputs[slot];
        Arg[] a = ring.args[slot];
        if (a == null || argIndex < 0 || argIndex >= a.length || !(a[argIndex] instanceof Arg.Output)
                || outs == null || outs[argIndex] == null) {
            throw new IllegalArgumentException("argument " + argIndex + " of task "
                    + Diagnostics.taskName(taskId) + " (kernel '" + ring.kernelName(slot)
                    + "') is not an Arg.Output");
        }
        return outs[argIndex];
    }

    // ---- TensorMap validity -----------------------------------------------------------------------------

    private void syncTensorMap(int r, int newSlot) {
        for (Ring ring : rings) {
            int la = ring.lastTaskAlive();
            tmap.setLastAlive(ring.id, la);
            if (tmap.cleanupDue(ring.id, la, ring.id == r ? newSlot : -1)) {
                tmap.cleanupRetired(ring.id, la);
            }
        }
    }
}
