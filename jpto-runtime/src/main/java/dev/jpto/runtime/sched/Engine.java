package dev.jpto.runtime.sched;

import dev.jpto.runtime.ChipOptions;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.dfx.TaskEvents;
import dev.jpto.runtime.ring.DepPool;
import dev.jpto.runtime.ring.Ring;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The state one run shares between the orchestrator and the scheduler threads: the four rings, the ready
 * queues per core type, the error latch and the progress counters; and the task life-cycle transitions
 * that several threads perform (completion, fanout release, CONSUMED, ring advance).
 */
public final class Engine {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int SUBMITTED = 7;
    private static final int RUNNING_STRIDE = 8;
    /** Within a thread's {@link #running} line: its completed-task count (single writer, summed by readers). */
    private static final int COMPLETED_BY = 2;
    /** Within a thread's {@link #running} line: the FLOPs its kernels reported this run (single writer). */
    private static final int WORK_FLOPS = 3;
    private static final int END_RUN_YIELDS = 64;

    public final Platform platform;
    public final Ring[] rings;
    public final ReadyQueue[] ready = new ReadyQueue[CoreType.values().length];
    public final ErrorLatch latch = new ErrorLatch();
    public final ChipOptions options;
    private final long[] counters = new long[32];
    /** Tasks submitted in this run; written by the orchestrator only, published in {@link #counters} at flushes. */
    private long submitted;
    /**
     * Per scheduler thread, one line each: raw id of the running task (−1 idle), its core, and the thread's count
     * of completed tasks (a shared counter would bounce its line between the threads on every completion).
     */
    private final long[] running;
    private final int threads;
    private final CostLog[] costLogs;
    private volatile boolean stop;
    private volatile boolean orchDone;
    /** Run number: a change starts the scheduler threads' next run. */
    private volatile long generation;
    private volatile boolean shutdown;
    private final java.util.concurrent.atomic.AtomicInteger idleWorkers = new java.util.concurrent.atomic.AtomicInteger();
    private Thread[] workers = new Thread[0];
    /** Spinning and parked scheduler threads; set with {@link #workers}. */
    private WakeUps wakeUps = new WakeUps(workers);
    private final ReadyStage stage = new ReadyStage();
    private final long[] orchestratorTaken = stageBuffer();
    /** DFX hooks of the current run, or null (DFX off). Plain: published to the workers by {@link #beginRun}. */
    private TaskEvents events;

    public Engine(Platform platform, Ring[] rings, int schedulerThreads, ChipOptions options) {
        this.platform = platform;
        this.rings = rings;
        this.options = options;
        this.threads = schedulerThreads;
        int live = 0;
        for (Ring r : rings) {
            live += r.window();
        }
        int cap = readyQueueCapacity(live);
        for (CoreType t : CoreType.values()) {
            ready[t.ordinal()] = new ReadyQueue(cap);
        }
        this.running = new long[(schedulerThreads + 1) * RUNNING_STRIDE];
        this.costLogs = new CostLog[schedulerThreads];
        for (int t = 0; t < schedulerThreads; t++) {
            costLogs[t] = new CostLog();
        }
    }

    /** Scheduler thread {@code t}'s device costs of the current (or last) run; read it after the run. */
    public CostLog costLog(int t) {
        return costLogs[t];
    }

    /**
     * Clears the per-run state; the rings are reset by their owner. After a clean run the ready queues are
     * empty and consistent, so only a failed run ({@code full}) rebuilds them.
     */
    public void reset(boolean full) {
        if (full) {
            for (ReadyQueue q : ready) {
                q.reset();
            }
        }
        submitted = 0;
        LONGS.setRelease(counters, SUBMITTED, 0L);
        for (int t = 0; t < threads; t++) {
            setRunning(t, -1, -1);
        }
        for (int t = 0; t <= threads; t++) { // line `threads`: the orchestrator's inline completions
            LONGS.setRelease(running, t * RUNNING_STRIDE + COMPLETED_BY, 0L);
            LONGS.setRelease(running, t * RUNNING_STRIDE + WORK_FLOPS, 0L);
        }
        for (CostLog log : costLogs) {
            log.reset();
        }
        stop = false;
        orchDone = false;
        stage.reset();
        latch.reset();
    }

    // ---- scheduler thread life cycle (threads live as long as the engine) ---------------------------------

    /** Starts the scheduler threads; they wait for {@link #beginRun}. */
    public void startWorkers(String namePrefix) {
        workers = new Thread[threads];
        idleWorkers.set(threads);
        for (int t = 0; t < threads; t++) {
            workers[t] = Thread.ofPlatform().daemon().name(namePrefix + t).unstarted(new SchedulerThread(this, t, threads));
        }
        wakeUps = new WakeUps(workers);
        for (Thread w : workers) {
            w.start(); // publishes wakeUps to the thread
        }
    }

    /** Lets the scheduler threads start a run; call after {@link #reset}. */
    public void beginRun() {
        idleWorkers.set(0);
        generation = generation + 1; // volatile write: publishes the reset state to the workers
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
    }

    /** Sets the DFX hooks of the next run (null for none); call before {@link #beginRun}. */
    public void setEvents(TaskEvents runEvents) {
        this.events = runEvents;
    }

    TaskEvents events() {
        return events;
    }

    long generation() {
        return generation;
    }

    boolean shutdownRequested() {
        return shutdown;
    }

    void workerIdle() {
        idleWorkers.incrementAndGet();
    }

    /**
     * Ends the run: every scheduler thread leaves its run loop within one idle park; one still inside a kernel
     * after {@code graceMillis} is interrupted. Returns false if a thread is still busy after
     * {@code joinMillis} more (a kernel that never returns): the engine must then be discarded.
     */
    public boolean endRun(long graceMillis, long joinMillis) {
        stop = true;
        for (Thread w : workers) {
            LockSupport.unpark(w); // parked idle threads leave now, not at their park bound
        }
        long deadline = System.nanoTime() + graceMillis * 1_000_000;
        boolean interrupted = false;
        // Threads leave within microseconds after a clean run: poll briefly before sleeping in parks.
        for (int i = 0; i < END_RUN_YIELDS && idleWorkers.get() < threads; i++) {
            Thread.yield();
        }
        while (idleWorkers.get() < threads) {
            long now = System.nanoTime();
            if (!interrupted && now > deadline) {
                for (int t = 0; t < threads; t++) {
                    if (runningTask(t) >= 0) {
                        workers[t].interrupt();
                    }
                }
                interrupted = true;
                deadline = now + joinMillis * 1_000_000;
            } else if (interrupted && now > deadline) {
                return false;
            }
            LockSupport.parkNanos(50_000);
        }
        return true;
    }

    /** Stops the scheduler threads for good (chip closed, or engine discarded). */
    public void shutdown() {
        shutdown = true;
        stop = true;
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
        // Joined even when the caller is interrupted (a cancelled run closes its chip): an interrupt must not
        // leave scheduler threads behind. Bounded: 200 ms per thread; the interrupt status is restored.
        boolean interrupted = Thread.interrupted();
        for (Thread w : workers) {
            long deadline = System.nanoTime() + 200_000_000L;
            while (w.isAlive() && System.nanoTime() < deadline) {
                try {
                    w.join(java.time.Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    public int schedulerThreads() {
        return threads;
    }

    /** Thread ids of the scheduler threads (for per-thread CPU accounting by benchmarks). */
    public long[] workerThreadIds() {
        long[] ids = new long[workers.length];
        for (int t = 0; t < ids.length; t++) {
            ids[t] = workers[t].threadId();
        }
        return ids;
    }

    // ---- counters ---------------------------------------------------------------------------------------

    /** Orchestrator: one more task submitted (a plain count: the watchdog sees it at the next flushStaged). */
    public void countSubmitted() {
        submitted++;
    }

    /** Tasks submitted so far; on the orchestrator thread (during or after the run). */
    public long submitted() {
        return submitted;
    }

    /**
     * The submitted count as last published for the other threads, at most a stage or a scope behind: a release
     * store per task would be a line written on every submit for a reader that looks only when progress stalls.
     */
    private long publishedSubmitted() {
        return (long) LONGS.getAcquire(counters, SUBMITTED);
    }

    /** {@link #submitted}, as published, for a thread other than the orchestrator's (a progress display). */
    public long submittedSoFar() {
        return publishedSubmitted();
    }

    /**
     * Tasks completed so far. Each thread's count only grows, so the sum never exceeds the true total: equal to
     * {@link #submitted} means every task completed.
     */
    public long completed() {
        long sum = 0;
        for (int t = 0; t <= threads; t++) {
            sum += (long) LONGS.getAcquire(running, t * RUNNING_STRIDE + COMPLETED_BY);
        }
        return sum;
    }

    /** Scheduler thread {@code thread} ran kernels that reported {@code flops} more FLOPs (its own line only). */
    public void addWork(int thread, long flops) {
        int f = thread * RUNNING_STRIDE + WORK_FLOPS;
        LONGS.setRelease(running, f, (long) LONGS.getOpaque(running, f) + flops);
    }

    /** FLOPs the kernels of this run reported ({@code TaskContext.recordWork}), summed over the threads. */
    public long workFlops() {
        long sum = 0;
        for (int t = 0; t <= threads; t++) {
            sum += (long) LONGS.getAcquire(running, t * RUNNING_STRIDE + WORK_FLOPS);
        }
        return sum;
    }

    public boolean stopRequested() {
        return stop;
    }

    public void orchestratorDone() {
        orchDone = true;
    }

    /** Opaque: only the watchdog reads these, and a slightly stale view only delays its verdict. */
    void setRunning(int thread, long raw, long core) {
        LONGS.setOpaque(running, thread * RUNNING_STRIDE + 1, core);
        LONGS.setOpaque(running, thread * RUNNING_STRIDE, raw);
    }

    long runningTask(int thread) {
        return (long) LONGS.getAcquire(running, thread * RUNNING_STRIDE);
    }

    long runningCore(int thread) {
        return (long) LONGS.getAcquire(running, thread * RUNNING_STRIDE + 1);
    }

    // ---- life cycle -------------------------------------------------------------------------------------

    /** Cells of each ready queue: a power of two above the tasks that can be live at once ({@code slots}). */
    private static int readyQueueCapacity(long slots) {
        return Integer.highestOneBit((int) Math.max(2, slots - 1)) << 1;
    }

    /** Java heap of an engine over rings of {@code slots} task slots in all: its ready queues (id and sequence). */
    public static long javaHeapBytes(long slots) {
        return (long) CoreType.values().length * readyQueueCapacity(slots) * 2 * Long.BYTES;
    }

    /**
     * Orchestrator side: a task of core type {@code type} is ready at submit. It is staged ({@link ReadyStage}) and
     * reaches the ready queues with the next {@value ReadyStage#CAPACITY}, or at the next {@link #flushStaged}.
     */
    public void stageReady(long raw, CoreType type) {
        while (!stage.tryAdd(raw, type.ordinal())) {
            flushStaged(); // each try claims the staged entries, or a scheduler thread just did
        }
        if (stage.full()) {
            flushStaged();
        }
    }

    /**
     * Orchestrator side: queues the staged tasks and wakes parked scheduler threads for them if none spins. Called
     * at scope end, before every orchestrator wait and at the end of the orchestration.
     */
    public void flushStaged() {
        LONGS.setRelease(counters, SUBMITTED, submitted);
        publish(stage.take(orchestratorTaken), orchestratorTaken, 0);
    }

    /** Scheduler side, before parking: queues what the orchestrator staged (it may be busy elsewhere). */
    void takeStaged(long[] taken) {
        publish(stage.take(taken), taken, 1); // this thread polls one of them itself
    }

    /**
     * Queues the {@code n} staged entries in {@code taken[0, n)}: sorted by core type into {@code taken}'s second
     * half (AIC first, each type in stage order), then one batch per ready queue.
     */
    private void publish(int n, long[] taken, int selfServed) {
        int aic = 0;
        for (int i = 0; i < n; i++) {
            if (ReadyStage.isAic(taken[i])) {
                aic++;
            }
        }
        int nextAic = ReadyStage.CAPACITY;
        int nextAiv = ReadyStage.CAPACITY + aic;
        for (int i = 0; i < n; i++) {
            long e = taken[i];
            taken[ReadyStage.isAic(e) ? nextAic++ : nextAiv++] = ReadyStage.idOf(e);
        }
        offerAll(CoreType.AIC, taken, ReadyStage.CAPACITY, aic);
        offerAll(CoreType.AIV, taken, ReadyStage.CAPACITY + aic, n - aic);
        if (n > selfServed) {
            wakeUps.signal(n - selfServed);
        }
    }

    /** A buffer for {@link #takeStaged}, one per scheduler thread: the taken entries, then them sorted by type. */
    static long[] stageBuffer() {
        return new long[2 * ReadyStage.CAPACITY];
    }

    boolean stagedHint() {
        return stage.nonEmptyHint();
    }

    /** Whether a ready queue holds a task (racy: a hint for waking one more thread). */
    boolean readyBacklog() {
        for (ReadyQueue q : ready) {
            if (q.nonEmptyHint()) {
                return true;
            }
        }
        return false;
    }

    WakeUps wakeUps() {
        return wakeUps;
    }

    private void enqueue(long raw) {
        Ring r = rings[(int) (raw >>> 32)];
        enqueue(raw, r.coreType(r.slotOf(raw)));
    }

    private void enqueue(long raw, CoreType type) {
        if (!ready[type.ordinal()].offer(raw)) {
            readyOverflow(type);
        }
    }

    private void offerAll(CoreType type, long[] ids, int from, int n) {
        if (!ready[type.ordinal()].offerAll(ids, from, n)) {
            readyOverflow(type);
        }
    }

    private void readyOverflow(CoreType type) {
        latch.latch(new ChipRuntimeException(ErrorCode.SCHEDULER_TIMEOUT, "ready queue of " + type
                + " overflowed at capacity " + ready[type.ordinal()].capacity()
                + " (sub_class=unknown:accounting/corruption); this is a runtime bug"));
    }

    /**
     * The task ran on scheduler thread {@code thread}: release the producers it retained, mark COMPLETED, make its
     * waiting consumers ready, test itself for CONSUMED (spec a.6 steps 1–3; the producers come first here, see
     * below).
     *
     * <p>Returns one consumer it made ready whose core type is in {@code runnable} (bit per {@link CoreType}
     * ordinal), not queued: the caller runs it next, as a work-stealing pool runs a continuation from its own
     * queue. A chain then stays on one thread instead of bouncing through the shared queue to a spinning thread.
     * Returns {@link ReadyQueue#EMPTY} if there is none.
     */
    public long complete(long raw, int thread, int runnable) {
        Ring ring = rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        // Producers first: once COMPLETED is visible, the scope end may consume the task and the orchestrator reuse
        // its slot, so its fanin edges must not be read after that.
        if (ring.retainCount(slot) != 0) {
            releaseRetainedProducers(ring, slot);
        }
        ring.lock(slot);
        long ptr = ring.markCompletedLocked(slot);
        // Read under the lock: once it is released, the slot may be consumed and reused.
        int inline = ring.inlineFanouts(slot);
        long first = inline > 0 ? ring.inlineFanout(slot, 0) : 0;
        long second = inline > 1 ? ring.inlineFanout(slot, 1) : 0;
        ring.unlock(slot);
        long mine = inline == 0 && ptr == DepPool.NULL ? ReadyQueue.EMPTY
                : releaseConsumers(inline, first, second, ptr, runnable);
        consumeIfDone(ring, slot);
        int c = thread * RUNNING_STRIDE + COMPLETED_BY;
        LONGS.setRelease(running, c, (long) LONGS.getOpaque(running, c) + 1);
        return mine;
    }

    /**
     * Orchestrator: a task that runs on no core (an {@code alloc_tensors} task) completes at its submit. Its
     * completion counts on the orchestrator's own line; a consumer it made ready is queued.
     */
    public void completeInline(long raw) {
        complete(raw, threads, 0);
    }

    /**
     * Scheduler thread: another block of a multi-block task is left to run; the entry goes back to its ready queue
     * (it took the place this poll freed, so the queue cannot overflow) for a thread with a free core.
     */
    void requeue(long raw, CoreType type) {
        enqueue(raw, type);
        wakeUps.signal(1);
    }

    /** Releases the producers the task in {@code slot} retained (its RETAIN fanin edges). */
    private void releaseRetainedProducers(Ring ring, int slot) {
        int n = ring.faninEdgeCount(slot);
        for (int i = 0; i < n; i++) {
            long e = ring.faninEdge(slot, i);
            if ((e & Ring.EDGE_RETAIN) != 0) {
                releaseProducer(e & Ring.EDGE_ID_MASK);
            }
        }
    }

    /**
     * Satisfies one fanin edge of each consumer of a completed task: its {@code inline} consumers held in the slot
     * ({@code first}, {@code second}), then its fanout list from {@code ptr}. Returns the one made ready that this
     * thread runs next (see {@link #complete}); queues the others and wakes parked threads for them.
     */
    private long releaseConsumers(int inline, long first, long second, long ptr, int runnable) {
        int queued = 0;
        long mine = ReadyQueue.EMPTY;
        for (int i = 0; i < inline || ptr != DepPool.NULL; i++) {
            long consumer;
            if (i < inline) {
                consumer = i == 0 ? first : second;
            } else {
                DepPool pool = rings[DepPool.ringOf(ptr)].deps;
                consumer = pool.consumerAt(ptr);
                ptr = pool.nextAt(ptr); // read before the consumer can run and its node be recycled
            }
            Ring cr = rings[(int) (consumer >>> 32)];
            int cs = cr.slotOf(consumer);
            if (cr.addFanin(cs, 1)) {
                if (mine == ReadyQueue.EMPTY && (runnable & 1 << cr.coreType(cs).ordinal()) != 0) {
                    mine = consumer;
                } else {
                    enqueue(consumer);
                    queued++;
                }
            }
        }
        // This thread runs one ready task next (its own, or one it polls): parked threads are woken for the rest.
        int others = mine == ReadyQueue.EMPTY ? queued - 1 : queued;
        if (others > 0) {
            wakeUps.signal(others);
        }
        return mine;
    }

    /** One consumer reference of {@code raw} released. */
    public void releaseProducer(long raw) {
        Ring ring = rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        ring.releaseFanout(slot, 1);
        consumeIfDone(ring, slot);
    }

    /**
     * The owning scope ended: release its reference of {@code raw}. Returns true if that made the task
     * CONSUMED: the caller then advances the ring's tail ({@link Ring#advance}) once for all the tasks of the
     * scope, not once per task.
     */
    public boolean releaseScope(long raw) {
        Ring ring = rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        if (ring.consumeAtScopeEnd(slot)) {
            return true;
        }
        ring.releaseFanout(slot, Ring.SCOPE_BIT);
        // Not completed yet: its completing thread tests CONSUMED after marking COMPLETED and will see this
        // release (volatile add here / volatile state store there), so the lock can be skipped.
        return ring.stateVolatile(slot) == Ring.COMPLETED && ring.tryConsume(slot);
    }

    private static void consumeIfDone(Ring ring, int slot) {
        if (ring.tryConsume(slot)) {
            ring.advance();
        }
    }

    // ---- watchdog ---------------------------------------------------------------------------------------

    /** A watcher's view of progress; one per watching thread, reused. */
    public static final class Progress {
        long seen = -1;
        long since;
        private SlowKernelGrace grace;

        /** Forgets what was seen: the next {@link #stalled} call starts the no-progress clock afresh. */
        public void restart() {
            seen = -1;
        }
    }

    /**
     * Scheduler no-progress watchdog (spec d.4, code 100). Progress is any task completion. Latches and
     * returns true when no task completed for the scheduler timeout while work remains; with a kernel running,
     * only once {@link SlowKernelGrace} finds it stuck rather than slow.
     */
    public boolean stalled(Progress p) {
        long c = completed();
        long now = System.nanoTime();
        if (c != p.seen) {
            p.seen = c;
            p.since = now;
            if (p.grace != null) {
                p.grace.reset();
            }
            return false;
        }
        long timeout = options.schedulerTimeout().toNanos();
        if (now - p.since < timeout) {
            return false;
        }
        long submitted = publishedSubmitted();
        long remaining = submitted - c;
        long[] runningTasks = new long[threads];
        int runningCount = 0;
        long stuck = -1;
        long stuckCore = -1;
        int stuckThread = -1;
        for (int t = 0; t < threads; t++) {
            long r = runningTask(t);
            runningTasks[t] = r;
            if (r >= 0) {
                runningCount++;
                if (stuck < 0) {
                    stuck = r;
                    stuckCore = runningCore(t);
                    stuckThread = t;
                }
            }
        }
        if (runningCount == 0 && remaining <= 0) {
            p.since = now; // idle with nothing to do: the orchestrator is simply busy
            return false;
        }
        if (runningCount > 0) {
            if (p.grace == null) {
                p.grace = new SlowKernelGrace(threads);
            }
            if (p.grace.waitOn(now, now - p.since, timeout, runningTasks, workerThreadIds())) {
                return false;
            }
        } else if (p.grace != null && p.grace.kernelJustEnded(now, timeout)) {
            return false;
        }
        long readyCount = ready[0].size() + ready[1].size();
        long waiting = Math.max(0, remaining - runningCount - readyCount);
        String sub;
        if (runningCount > 0) {
            sub = "S1:running-stalled";
        } else if (readyCount > 0) {
            sub = "S3:ready-but-all-idle";
        } else if (waiting > 0 && orchDone) {
            sub = "S4:dependency-deadlock";
        } else if (!orchDone) {
            sub = "S5:orchestrator-starvation";
        } else {
            sub = "unknown:accounting/corruption";
        }
        StringBuilder sb = new StringBuilder();
        sb.append("no task completed for ").append((now - p.since) / 1_000_000).append(" ms (scheduler timeout ")
                .append(options.schedulerTimeout().toMillis()).append(" ms): sub_class=").append(sub)
                .append(" completed=").append(c).append('/').append(submitted)
                .append(" running=").append(runningCount).append(" ready=").append(readyCount)
                .append(" waiting=").append(waiting).append(" orch_done=").append(orchDone);
        if (stuck >= 0) {
            Ring ring = rings[(int) (stuck >>> 32)];
            int slot = ring.slotOf(stuck);
            CoreType type = ring.coreType(slot);
            sb.append(" stuck_task_id=").append(Diagnostics.taskName(stuck)).append(" kernel '")
                    .append(ring.kernelName(slot)).append("' stuck_core=").append(type).append(stuckCore)
                    .append(" (scheduler thread ").append(stuckThread).append(')')
                    .append(" cpu_ms=").append(p.grace.cpuUsedNanos() / 1_000_000)
                    .append(" (CPU time the running kernels used since the timeout; a stuck kernel uses little, a slow")
                    .append(" one is given until it used the timeout, at most ").append(SlowKernelGrace.MAX_WALL_FACTOR)
                    .append(" timeouts)")
                    .append("; the kernel did not return: fix kernel '").append(ring.kernelName(slot))
                    .append("', or raise the scheduler timeout, now ").append(options.schedulerTimeout().toMillis())
                    .append(" ms (runtime_cfg os_env=SIMPLER_SCHEDULER_TIMEOUT_MS=<ms>; from Java, ")
                    .append("ChipOptions.schedulerTimeout)");
        } else {
            sb.append("; this indicates a runtime accounting bug: please report it with this line");
        }
        latch.latch(new ChipRuntimeException(ErrorCode.SCHEDULER_TIMEOUT, sb.toString()));
        return true;
    }
}
