package dev.jpto.runtime.sched;

import dev.jpto.runtime.ChipOptions;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.ring.DepPool;
import dev.jpto.runtime.ring.Ring;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state one run shares between the orchestrator and the scheduler threads: the four rings, the ready
 * queues per core type, the error latch and the progress counters; and the task life-cycle transitions
 * that several threads perform (completion, fanout release, CONSUMED, ring advance).
 */
public final class Engine {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int SUBMITTED = 7;
    private static final int COMPLETED = 23;
    private static final int RUNNING_STRIDE = 8;

    public final Platform platform;
    public final Ring[] rings;
    public final ReadyQueue[] ready = new ReadyQueue[CoreType.values().length];
    public final ErrorLatch latch = new ErrorLatch();
    public final ChipOptions options;
    private final long[] counters = new long[32];
    /** Per scheduler thread: raw id of the running task (−1 idle) and its core, on separate lines. */
    private final long[] running;
    private final int threads;
    private volatile boolean stop;
    private volatile boolean orchDone;

    public Engine(Platform platform, Ring[] rings, int schedulerThreads, ChipOptions options) {
        this.platform = platform;
        this.rings = rings;
        this.options = options;
        this.threads = schedulerThreads;
        int live = 0;
        for (Ring r : rings) {
            live += r.window();
        }
        int cap = Integer.highestOneBit(Math.max(2, live - 1)) << 1;
        for (CoreType t : CoreType.values()) {
            ready[t.ordinal()] = new ReadyQueue(cap);
        }
        this.running = new long[(schedulerThreads + 1) * RUNNING_STRIDE];
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
        LONGS.setRelease(counters, SUBMITTED, 0L);
        LONGS.setRelease(counters, COMPLETED, 0L);
        for (int t = 0; t < threads; t++) {
            setRunning(t, -1, -1);
        }
        stop = false;
        orchDone = false;
        latch.reset();
    }

    public int schedulerThreads() {
        return threads;
    }

    // ---- counters ---------------------------------------------------------------------------------------

    public void countSubmitted() {
        LONGS.setRelease(counters, SUBMITTED, (long) LONGS.getOpaque(counters, SUBMITTED) + 1);
    }

    public long submitted() {
        return (long) LONGS.getAcquire(counters, SUBMITTED);
    }

    public long completed() {
        return (long) LONGS.getAcquire(counters, COMPLETED);
    }

    public boolean stopRequested() {
        return stop;
    }

    public void requestStop() {
        stop = true;
    }

    public void orchestratorDone() {
        orchDone = true;
    }

    public boolean isOrchestratorDone() {
        return orchDone;
    }

    void setRunning(int thread, long raw, long core) {
        LONGS.setRelease(running, thread * RUNNING_STRIDE, raw);
        LONGS.setRelease(running, thread * RUNNING_STRIDE + 1, core);
    }

    long runningTask(int thread) {
        return (long) LONGS.getAcquire(running, thread * RUNNING_STRIDE);
    }

    long runningCore(int thread) {
        return (long) LONGS.getAcquire(running, thread * RUNNING_STRIDE + 1);
    }

    // ---- life cycle -------------------------------------------------------------------------------------

    public void pushReady(long raw) {
        Ring r = rings[(int) (raw >>> 32)];
        CoreType type = r.coreType[r.slotOf(raw)];
        if (!ready[type.ordinal()].offer(raw)) {
            latch.latch(new ChipRuntimeException(ErrorCode.SCHEDULER_TIMEOUT, "ready queue of " + type
                    + " overflowed at capacity " + ready[type.ordinal()].capacity()
                    + " (sub_class=unknown:accounting/corruption); this is a runtime bug"));
        }
    }

    /**
     * The task ran: mark COMPLETED, make its waiting consumers ready, release the producers it retained,
     * test itself for CONSUMED (spec a.6 steps 1–3).
     */
    public void complete(long raw) {
        Ring ring = rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        ring.lock(slot);
        long ptr = ring.markCompletedLocked(slot);
        ring.unlock(slot);
        while (ptr != DepPool.NULL) {
            DepPool pool = rings[DepPool.ringOf(ptr)].deps;
            long consumer = pool.consumerAt(ptr);
            long next = pool.nextAt(ptr); // read before the consumer can run and its node be recycled
            Ring cr = rings[(int) (consumer >>> 32)];
            if (cr.addFanin(cr.slotOf(consumer), 1)) {
                pushReady(consumer);
            }
            ptr = next;
        }
        long[] edges = ring.fanins[slot];
        int n = ring.faninN[slot];
        for (int i = 0; i < n; i++) {
            long e = edges[i];
            if ((e & Ring.EDGE_RETAIN) != 0) {
                releaseProducer(e & Ring.EDGE_ID_MASK);
            }
        }
        consumeIfDone(ring, slot);
        LONGS.getAndAdd(counters, COMPLETED, 1L);
    }

    /** One consumer reference of {@code raw} released. */
    public void releaseProducer(long raw) {
        Ring ring = rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        ring.releaseFanout(slot, 1);
        consumeIfDone(ring, slot);
    }

    /** The owning scope ended: release its reference of {@code raw}. */
    public void releaseScope(long raw) {
        Ring ring = rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        ring.releaseFanout(slot, Ring.SCOPE_BIT);
        consumeIfDone(ring, slot);
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
    }

    /**
     * Scheduler no-progress watchdog (spec d.4, code 100). Progress is any task completion. Latches and
     * returns true when no task completed for the scheduler timeout while work remains.
     */
    public boolean stalled(Progress p) {
        long c = completed();
        long now = System.nanoTime();
        if (c != p.seen) {
            p.seen = c;
            p.since = now;
            return false;
        }
        long timeout = options.schedulerTimeout().toNanos();
        if (now - p.since < timeout) {
            return false;
        }
        long submitted = submitted();
        long remaining = submitted - c;
        int runningCount = 0;
        long stuck = -1;
        long stuckCore = -1;
        int stuckThread = -1;
        for (int t = 0; t < threads; t++) {
            long r = runningTask(t);
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
            CoreType type = ring.coreType[slot];
            sb.append(" stuck_task_id=").append(Diagnostics.taskName(stuck)).append(" kernel '")
                    .append(ring.kernel[slot]).append("' stuck_core=").append(type).append(stuckCore)
                    .append(" (scheduler thread ").append(stuckThread).append(')')
                    .append("; the kernel did not return: fix kernel '").append(ring.kernel[slot])
                    .append("', or raise the scheduler timeout (ChipOptions.schedulerTimeout, now ")
                    .append(options.schedulerTimeout().toMillis()).append(" ms)");
        } else {
            sb.append("; this indicates a runtime accounting bug: please report it with this line");
        }
        latch.latch(new ChipRuntimeException(ErrorCode.SCHEDULER_TIMEOUT, sb.toString()));
        return true;
    }
}
