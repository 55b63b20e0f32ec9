package dev.jpto.runtime.orch;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RingShortfall;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.dfx.TaskEvents;
import dev.jpto.runtime.ring.FaninPool;
import dev.jpto.runtime.ring.HeapRing;
import dev.jpto.runtime.ring.Ring;
import dev.jpto.runtime.sched.Diagnostics;
import dev.jpto.runtime.sched.Engine;
import dev.jpto.runtime.tensormap.TensorMap;
import java.util.function.IntSupplier;

/**
 * The orchestrator's bounded waits (spec b, d): task slot and heap, dep pool, fanin spill pool, TensorMap
 * entries, and the end-of-run drain. Each wait reclaims, idles (spin, yield, park) while nothing retires, and
 * turns a wait that cannot end — the oldest live task held by an open scope, or no progress within the
 * allocation bound — into the spec's error code with the numbers and the knob to change. DFX hooks see every
 * wait that actually idled as back-pressure. Orchestrator thread only.
 */
final class BackPressure {
    /** {@code PUBLISH_INTERVAL_K}: how often the fast path re-reads a ring's tail. */
    static final int PUBLISH_INTERVAL = 16;

    private final Engine engine;
    private final Ring[] rings;
    private final TensorMap tmap;
    private final Reclaimer reclaimer;
    private final Waiter waiter = new Waiter();
    private final int[] sinceRefresh = new int[RingField.RINGS];
    private RuntimeEnv env;
    /** The orchestrator thread of this run: interrupting it cancels the run. */
    private Thread owner;
    /** DFX hooks of this run, or null. */
    private TaskEvents events;

    BackPressure(Engine engine, TensorMap tmap, Reclaimer reclaimer) {
        this.engine = engine;
        this.rings = engine.rings;
        this.tmap = tmap;
        this.reclaimer = reclaimer;
        this.owner = Thread.currentThread();
    }

    /** Prepares a new run orchestrated on {@code runOwner} (the thread that called {@code Chip.run}). */
    void reset(RuntimeEnv runEnv, Thread runOwner) {
        this.env = runEnv;
        this.owner = runOwner;
        this.events = null;
        java.util.Arrays.fill(sinceRefresh, 0);
        waiter.reset();
        // The watchdog's view must start with this run: a stale "no completion since" from a failed run (whose
        // completed count matches this run's 0) would declare the new run stalled before it began.
        waiter.progress.restart();
    }

    void setEvents(TaskEvents runEvents) {
        this.events = runEvents;
    }

    // ---- end of run -------------------------------------------------------------------------------------

    /** Waits until every submitted task completed and every ring is fully reclaimed. */
    void drain() {
        waiter.reset();
        while (engine.completed() != engine.submitted()) {
            idle();
        }
        waiter.reset();
        for (Ring r : rings) {
            while (r.lastTaskAlive() != r.tasks.nextLocal()) {
                if (waiter.elapsedNanos() > engine.options.schedulerTimeout().toNanos()) {
                    throw engine.latch.fail(ErrorCode.SCHEDULER_TIMEOUT, "all " + engine.submitted() + " tasks completed "
                            + "but ring " + r.id + " was not reclaimed (last_task_alive " + r.lastTaskAlive()
                            + ", current " + r.tasks.nextLocal() + ", oldest " + AllocatorErrors.headName(r)
                            + "; sub_class=unknown:accounting/corruption); this is a runtime bug: please report it with"
                            + " this line", null);
                }
                idle();
            }
            reclaimer.reclaim(r); // drops the retired tasks' arguments
            r.dropBodies(); // and kernels: a clean run leaves no references behind
            tmap.cleanupRetired(r.id, r.lastTaskAlive()); // leaves the map empty for a cheap reset
        }
    }

    /** Every orchestrator wait first hands the staged ready tasks to the scheduler: they may be what it waits for. */
    private void pause() {
        engine.flushStaged();
        waiter.idle();
    }

    private void idle() {
        checkRun();
        pause();
    }

    // ---- task slot and heap -----------------------------------------------------------------------------

    /** Reserves a task slot and {@code bytes} of heap on {@code ring}, waiting while the ring is full. */
    long allocTask(Ring ring, long bytes, String kernel, int depth) {
        HeapRing heap = ring.heap;
        if (bytes > heap.size()) {
            throw heapDeadlock(ring, bytes, kernel, depth, "the request is larger than the ring's whole heap, so it "
                    + "can never fit");
        }
        // Observe the scheduler's tail every PUBLISH_INTERVAL submits (simpler publishes it K-batched too);
        // a full ring always re-reads it in the slow path.
        if (++sinceRefresh[ring.id] >= PUBLISH_INTERVAL) {
            sinceRefresh[ring.id] = 0;
            reclaimer.reclaim(ring);
        }
        if (!ring.tasks.full(reclaimer.reclaimedUpTo(ring.id))) {
            long off = heap.tryBump(bytes, ring.tasks.nextLocal());
            if (off != HeapRing.FULL) {
                return off;
            }
        }
        if (events == null) {
            return allocTaskWait(ring, bytes, kernel, depth);
        }
        int resource = ring.tasks.full(reclaimer.reclaimedUpTo(ring.id)) ? TaskEvents.RES_TASK_WINDOW
                : TaskEvents.RES_HEAP;
        long idles = waiter.idleCalls();
        long t0 = System.nanoTime();
        try {
            return allocTaskWait(ring, bytes, kernel, depth);
        } finally {
            traceWait(ring.id, resource, idles, t0);
        }
    }

    private long allocTaskWait(Ring ring, long bytes, String kernel, int depth) {
        waiter.reset();
        while (true) {
            boolean progress = reclaimer.reclaim(ring);
            // The tail just applied to the allocators, not a fresher read: admission, heap tail and the
            // reported high-water must agree.
            boolean taskFull = ring.tasks.full(reclaimer.reclaimedUpTo(ring.id));
            if (!taskFull) {
                long off = ring.heap.tryBump(bytes, ring.tasks.nextLocal());
                if (off != HeapRing.FULL) {
                    return off;
                }
            }
            if (progress) {
                waiter.reset();
                continue;
            }
            checkRun();
            String cause = null;
            if (headScopeGated(ring)) {
                cause = "the oldest live task " + AllocatorErrors.headName(ring) + " is held by its scope, which is "
                        + "still open, so nothing on this ring can be reclaimed before the scope ends (scope-gated)";
            } else if (timedOut()) {
                cause = "no task on this ring was reclaimed for " + waiter.elapsedNanos() / 1_000_000
                        + " ms (oldest live task " + AllocatorErrors.headName(ring) + ")";
            }
            if (cause != null) {
                throw taskFull ? fail(ErrorCode.FLOW_CONTROL_DEADLOCK, AllocatorErrors.taskRing(ring, bytes, kernel,
                        cause, depth, env.ringTaskWindow())) : heapDeadlock(ring, bytes, kernel, depth, cause);
            }
            pause();
        }
    }

    private ChipRuntimeException heapDeadlock(Ring ring, long bytes, String kernel, int depth, String cause) {
        return fail(ErrorCode.HEAP_RING_DEADLOCK, AllocatorErrors.heap(ring, bytes, kernel, cause, depth,
                env.ringHeap()));
    }

    private ChipRuntimeException fail(ErrorCode code, AllocatorErrors.Failure f) {
        return engine.latch.failOnRing(code, f.facts(), f.shortfall());
    }

    // ---- dep pool ---------------------------------------------------------------------------------------

    /**
     * Makes room in {@code ring}'s dep pool for a task's {@code needed} edges. In the slow path, edges to
     * producers that retired are dropped first (and again on every retry) by {@code liveEdges}, which returns how
     * many are left: the TensorMap's cached tail is refreshed only every {@code PUBLISH_INTERVAL} submits, so its
     * lookups can return retired producers, which need no entry (claiming drops them anyway). Counting them made a
     * pool the task fits report code 4 (a fuzzer found it: 4 entries demanded of a 4-entry pool by a task with 2
     * live producers).
     */
    void ensureDepPool(Ring ring, int needed, IntSupplier liveEdges, long raw, String kernel) {
        if (ring.deps.hasSpace(needed)) {
            return;
        }
        int live = liveEdges.getAsInt();
        if (live == 0 || ring.deps.hasSpace(live)) {
            return;
        }
        if (live > ring.deps.capacity()) {
            throw depDeadlock(ring, live, raw, kernel, "the task needs more entries than the whole pool holds");
        }
        if (events == null) {
            waitDepPool(ring, liveEdges, raw, kernel);
            return;
        }
        long idles = waiter.idleCalls();
        long t0 = System.nanoTime();
        try {
            waitDepPool(ring, liveEdges, raw, kernel);
        } finally {
            traceWait(ring.id, TaskEvents.RES_DEP_POOL, idles, t0);
        }
    }

    private void waitDepPool(Ring ring, IntSupplier liveEdges, long raw, String kernel) {
        waiter.reset();
        while (true) {
            reclaimer.reclaim(ring);
            int last = ring.lastTaskAlive();
            long before = ring.deps.tail();
            if (last > 0) {
                ring.deps.reclaimTo(ring.depMark(ring.slotOf(last - 1)));
            }
            int needed = liveEdges.getAsInt();
            if (needed == 0 || ring.deps.hasSpace(needed)) {
                return;
            }
            if (ring.deps.tail() != before) {
                waiter.reset();
                continue;
            }
            checkRun();
            if (headScopeGated(ring)) {
                throw depDeadlock(ring, needed, raw, kernel, "the oldest live task " + AllocatorErrors.headName(ring)
                        + " is held by its open scope, so no entry can be reclaimed (scope-gated)");
            }
            if (timedOut()) {
                throw depDeadlock(ring, needed, raw, kernel, "no entry was reclaimed for "
                        + waiter.elapsedNanos() / 1_000_000 + " ms");
            }
            pause();
        }
    }

    private ChipRuntimeException depDeadlock(Ring ring, int needed, long raw, String kernel, String cause) {
        return fail(ErrorCode.DEP_POOL_OVERFLOW, AllocatorErrors.depPool(ring, needed, raw, kernel, cause,
                env.ringDepPool()));
    }

    // ---- fanin spill pool -------------------------------------------------------------------------------

    /** Makes room for one spilled fanin edge of task {@code raw} in {@code ring}'s fanin spill pool. */
    void ensureFaninSpill(Ring ring, long raw) {
        if (ring.faninSpill.hasSpace(1)) {
            return;
        }
        if (events == null) {
            waitFaninSpill(ring, raw);
            return;
        }
        long idles = waiter.idleCalls();
        long t0 = System.nanoTime();
        try {
            waitFaninSpill(ring, raw);
        } finally {
            traceWait(ring.id, TaskEvents.RES_FANIN_POOL, idles, t0);
        }
    }

    private void waitFaninSpill(Ring ring, long raw) {
        waiter.reset();
        while (true) {
            boolean progress = reclaimer.reclaim(ring);
            if (ring.faninSpill.hasSpace(1)) {
                return;
            }
            if (progress) {
                waiter.reset();
                continue;
            }
            checkRun();
            String cause = null;
            if (headScopeGated(ring)) {
                cause = "the oldest live task " + AllocatorErrors.headName(ring) + " is held by its open scope "
                        + "(scope-gated)";
            } else if (timedOut()) {
                cause = "no entry was reclaimed for " + waiter.elapsedNanos() / 1_000_000 + " ms";
            }
            if (cause != null) {
                FaninPool f = ring.faninSpill;
                throw engine.latch.failOnRing(ErrorCode.DEP_POOL_OVERFLOW, "Fanin Spill Pool Deadlock: the fanin spill "
                        + "pool of ring " + ring.id + " (fanin edges past " + Ring.FANIN_INLINE_CAP + " per task) "
                        + "could not supply an entry (capacity " + f.capacity()
                        + ", in use " + f.used() + ", high-water " + f.highWater() + ", task "
                        + Diagnostics.taskName(raw) + " kernel '" + ring.kernelName(ring.slotOf(raw)) + "'; " + cause
                        + "; ring_dep_pool sizes both the dep pool and this pool)",
                        RingShortfall.of(RingField.DEP_POOL, ring.id, f.capacity(), f.used() + 1, env.ringDepPool()));
            }
            pause();
        }
    }

    // ---- TensorMap --------------------------------------------------------------------------------------

    /** Makes room for {@code needed} TensorMap entries (writer registrations of task {@code raw}). */
    void ensureTensorMap(int needed, long raw, String kernel, int depth) {
        if (tmap.free() >= needed) {
            return;
        }
        if (needed > tmap.capacity()) {
            throw engine.latch.fail(ErrorCode.TENSORMAP_OVERFLOW, "TensorMap Entry Pool Overflow: task "
                    + Diagnostics.taskName(raw) + " kernel '" + kernel + "' registers " + needed
                    + " INOUT/OUTPUT_EXISTING tensors, more than the whole pool of " + tmap.capacity()
                    + " entries; split the task", null);
        }
        if (events == null) {
            waitTensorMap(needed, raw, kernel);
            return;
        }
        long idles = waiter.idleCalls();
        long t0 = System.nanoTime();
        try {
            waitTensorMap(needed, raw, kernel);
        } finally {
            traceWait(RingField.ringOf(depth), TaskEvents.RES_TENSORMAP, idles, t0);
        }
    }

    private void waitTensorMap(int needed, long raw, String kernel) {
        waiter.reset();
        while (true) {
            int freed = 0;
            for (Ring ring : rings) {
                reclaimer.reclaim(ring);
                freed += tmap.cleanupRetired(ring.id, ring.lastTaskAlive());
            }
            if (tmap.free() >= needed) {
                return;
            }
            if (freed > 0) {
                waiter.reset();
                continue;
            }
            checkRun();
            if (timedOut()) {
                throw engine.latch.fail(ErrorCode.TENSORMAP_OVERFLOW, "TensorMap Entry Pool Deadlock: " + needed
                        + " entries needed, none freed for " + waiter.elapsedNanos() / 1_000_000 + " ms (capacity "
                        + tmap.capacity() + ", in use " + tmap.used() + "; every entry is an INOUT/OUTPUT_EXISTING "
                        + "registration of a task that has not retired; task "
                        + Diagnostics.taskName(raw) + " kernel '" + kernel + "'); the pool size "
                        + "is fixed (PTO2_TENSORMAP_POOL_SIZE=" + tmap.capacity() + "): split the work into smaller "
                        + "scopes so producers retire, or register fewer writes per live task", null);
            }
            pause();
        }
    }

    // ---- orchestration-time reads ------------------------------------------------------------------------

    /**
     * Waits until each of the first {@code n} producers (edge words) has completed or retired (an orchestration-time
     * {@code access} to {@code element}). Bounded by the run's checks (a failure, a cancel, the
     * scheduler's stall watchdog when no task completes) and by the tensor data timeout: a wait that outlasts it,
     * even while tasks complete, fails with code 8 naming the task still awaited.
     */
    void awaitCompleted(long[] producers, int n, String access, Tensor element) {
        waiter.reset();
        long bound = engine.options.tensorDataTimeout().toNanos();
        for (int i = 0; i < n; i++) {
            long p = producers[i] & Ring.EDGE_ID_MASK;
            Ring ring = rings[(int) (p >>> 32)];
            int slot = ring.slotOf(p);
            while (ring.taskIdAt(slot) == p && ring.stateVolatile(slot) == Ring.PENDING) {
                checkRun();
                if (waiter.elapsedNanos() > bound) {
                    throw engine.latch.fail(ErrorCode.TENSOR_WAIT_TIMEOUT, access + " of " + element + " waited "
                            + waiter.elapsedNanos() / 1_000_000 + " ms for task " + Diagnostics.taskName(p)
                            + " kernel '" + ring.kernelName(slot) + "', still not complete (" + (n - i)
                            + " of " + n + " awaited tasks left; " + engine.completed() + " of " + engine.submitted()
                            + " submitted tasks completed); the bound is the tensor data timeout, "
                            + engine.options.tensorDataTimeout().toMillis() + " ms (runtime_cfg "
                            + "os_env=PTO2_TENSOR_DATA_TIMEOUT_MS=<ms>; from Java, ChipOptions.tensorDataTimeout): "
                            + "check that task for a hang, or raise the bound",
                            null);
                }
                pause();
            }
        }
    }

    // ---- shared -----------------------------------------------------------------------------------------

    /** Ends a wait when the run must stop: an error is latched, the host cancelled it, or the watchdog fired. */
    private void checkRun() {
        if (engine.latch.failed() || cancelled() || engine.stalled(waiter.progress)) {
            throw engine.latch.inForce(null);
        }
    }

    /**
     * The host cancels a run by interrupting the thread that called {@code Chip.run} (the orchestrator thread):
     * latch CANCELLED so the scheduler threads stop too. The interrupt status is kept for the caller's own checks.
     */
    boolean cancelled() {
        if (!owner.isInterrupted()) {
            return false;
        }
        engine.latch.fail(ErrorCode.CANCELLED, "the host cancelled the run: thread '" + owner.getName() + "' was "
                + "interrupted (e.g. Ctrl-C) after " + engine.submitted() + " submitted and " + engine.completed()
                + " completed tasks; the run stopped and the chip is usable again", null);
        return true;
    }

    /**
     * The allocator backstop: true once no task completed anywhere on the chip for the alloc deadlock timeout.
     * A ring whose oldest task waits on producers of another ring can go long without reclaiming while the chip
     * works through them; that is back-pressure, not a deadlock (a tiny dsv4 layer hit code 4 after 500 ms of
     * ring-1 work holding ring 2's tail, with the pool it needs once that work is done).
     */
    private boolean timedOut() {
        waiter.restartOnCompletion(engine.completed());
        return waiter.elapsedNanos() > engine.options.allocDeadlockTimeout().toNanos();
    }

    /**
     * The oldest live task still holds its scope reference: only the (blocked) orchestrator could release it.
     * "Oldest" is judged at the tail the caller's admission test used ({@link Reclaimer#reclaimedUpTo}), not a
     * fresher read: had the scheduler retired tasks since, the task at a fresher tail may well be scope-gated while
     * the ring already has room, and reporting a deadlock then would be false (a fuzzer found exactly that: code 3
     * on a window-4 ring holding one live task). A task at the applied tail that retired since has its scope bit
     * set (slots keep it until reuse), so it does not count as gated and the caller's next reclaim makes progress.
     */
    private boolean headScopeGated(Ring ring) {
        int last = reclaimer.reclaimedUpTo(ring.id);
        if (last == ring.tasks.nextLocal()) {
            return false;
        }
        return !ring.scopeReleased(ring.slotOf(last));
    }

    /**
     * Reports a wait that idled at least once (a slow path that succeeded at once is no back-pressure), and any
     * wait the run's error ended, however short: the trace shows what the failing submit waited for.
     */
    private void traceWait(int ring, int resource, long idlesBefore, long t0) {
        if (waiter.idleCalls() != idlesBefore || engine.latch.failed()) {
            events.backPressure(ring, resource, t0, System.nanoTime());
        }
    }
}
