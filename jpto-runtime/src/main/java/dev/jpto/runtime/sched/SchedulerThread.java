package dev.jpto.runtime.sched;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.MixedKernels;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.TaskBody;
import dev.jpto.runtime.TaskContext;
import dev.jpto.runtime.device.GmFootprint;
import dev.jpto.runtime.dfx.TaskEvents;
import dev.jpto.runtime.ring.Ring;
import java.util.concurrent.locks.LockSupport;

/**
 * One AICPU scheduler thread. It owns whole clusters, {@code k ≡ index (mod threads)}: cube core {@code k} and
 * vector cores {@code 2k, 2k + 1} ({@link Platform#schedulerThreadOf}). It takes ready tasks of the types it has
 * cores for, and runs each to completion on its next own core (round robin); a multi-block task one block at a time
 * (the other blocks go back to the queue for other threads), a mixed task's block on one of its clusters. Idle: one
 * thread at a time spins, then yields ({@link WakeUps}); the others park, bounded.
 */
public final class SchedulerThread implements Runnable {
    private static final int SPIN = 128;
    private static final int YIELD = 160;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final Engine engine;
    private final int index;
    private final int[] aicCores;
    private final int[] aivCores;
    private int nextAic;
    private int nextAiv;
    /** Only a thread with cores of both types may spin: the one spinner must be able to take any push. */
    private final boolean canSpin;
    /** Core types this thread can run, one bit per {@link CoreType} ordinal. */
    private final int runnable;
    private final Context ctx = new Context();
    private final long[] taken = Engine.stageBuffer();
    private final Engine.Progress progress = new Engine.Progress();
    private final CostLog costLog;

    public SchedulerThread(Engine engine, int index, int threads) {
        this.engine = engine;
        this.index = index;
        this.aicCores = own(CoreType.AIC, engine.platform.aicCores(), index, threads);
        this.aivCores = own(CoreType.AIV, engine.platform.aivCores(), index, threads);
        this.costLog = engine.costLog(index);
        this.ctx.platform = engine.platform;
        this.canSpin = aicCores.length > 0 && aivCores.length > 0;
        this.runnable = (aicCores.length > 0 ? 1 << CoreType.AIC.ordinal() : 0)
                | (aivCores.length > 0 ? 1 << CoreType.AIV.ordinal() : 0);
    }

    private static int[] own(CoreType type, int cores, int index, int threads) {
        return java.util.stream.IntStream.range(0, cores)
                .filter(c -> Platform.schedulerThreadOf(type, c, threads) == index).toArray();
    }

    @Override
    public void run() {
        long seen = 0;
        while (!engine.shutdownRequested()) {
            long g = engine.generation();
            if (g == seen) {
                LockSupport.parkNanos(1_000_000); // woken by beginRun; the bound only guards a missed unpark
                continue;
            }
            seen = g;
            progress.restart();
            try {
                runOnce();
            } catch (Throwable t) {
                // Kernel failures are latched in execute; anything else is a runtime bug. Fail the run now (not at
                // the watchdog, 10 s later, with this thread gone); the thread serves the next run (a full reset).
                engine.latch.latch(new ChipRuntimeException(ErrorCode.SCHEDULER_TIMEOUT, "scheduler thread " + index
                        + " failed: " + t + " (sub_class=unknown:accounting/corruption); this is a runtime bug: please"
                        + " report it with this line", t));
            }
            Thread.interrupted(); // an interrupt aimed at a finished kernel must not leak into the next run
            engine.workerIdle();
        }
    }

    private void runOnce() {
        boolean aicFirst = (index & 1) == 0;
        WakeUps wake = engine.wakeUps();
        int parks = 0;
        while (!engine.stopRequested() && !engine.latch.failed()) {
            long raw = pollAny(aicFirst);
            if (raw == ReadyQueue.EMPTY && canSpin && wake.trySpin()) {
                raw = spin(aicFirst);
                wake.endSpin();
                if (raw != ReadyQueue.EMPTY && engine.readyBacklog()) {
                    wake.signal(1); // more are queued: wake a thread to spin in this one's place
                }
            }
            if (raw != ReadyQueue.EMPTY) {
                runFrom(raw);
                continue;
            }
            if (engine.stagedHint()) {
                engine.takeStaged(taken);
                continue;
            }
            wake.announcePark(index);
            raw = pollAny(aicFirst);
            if (raw == ReadyQueue.EMPTY && !engine.stopRequested()) {
                // Woken by the next push nobody spins for; the bound keeps the watchdog and stop checks going.
                LockSupport.parkNanos(MAX_PARK_NANOS);
            }
            wake.parkDone(index);
            if (raw != ReadyQueue.EMPTY) {
                runFrom(raw);
                continue;
            }
            if ((++parks & 15) == 0 && engine.stalled(progress)) {
                return;
            }
        }
    }

    /** The spinner's wait: polls with spin hints, then with yields; EMPTY if nothing came. */
    private long spin(boolean aicFirst) {
        for (int i = 0; i < YIELD && !engine.stopRequested(); i++) {
            long raw = pollAny(aicFirst);
            if (raw != ReadyQueue.EMPTY) {
                return raw;
            }
            if (i < SPIN) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return ReadyQueue.EMPTY;
    }

    private long pollAny(boolean aicFirst) {
        long raw = poll(aicFirst ? CoreType.AIC : CoreType.AIV);
        return raw != ReadyQueue.EMPTY ? raw : poll(aicFirst ? CoreType.AIV : CoreType.AIC);
    }

    private long poll(CoreType type) {
        int[] cores = type == CoreType.AIC ? aicCores : aivCores;
        return cores.length == 0 ? ReadyQueue.EMPTY : engine.ready[type.ordinal()].poll();
    }

    /** Runs {@code raw}, then each consumer its completion hands to this thread (see {@link Engine#complete}). */
    private void runFrom(long raw) {
        long next = raw;
        while (next != ReadyQueue.EMPTY && !engine.stopRequested() && !engine.latch.failed()) {
            next = execute(next);
        }
    }

    /** Runs one task; returns the consumer to run next, or EMPTY (also when the kernel failed). */
    private long execute(long raw) {
        Ring ring = engine.rings[(int) (raw >>> 32)];
        int slot = ring.slotOf(raw);
        if (ring.multiBlock(slot)) {
            return executeBlock(raw, ring, slot);
        }
        CoreType type = ring.coreType(slot);
        if (!run(raw, ring, slot, ring.body(slot), type, nextCore(type), 0, 1, 0)) {
            return ReadyQueue.EMPTY;
        }
        return engine.complete(raw, index, runnable);
    }

    /**
     * Runs the next block of a multi-block or mixed task: its kernel on a core of its type, or each active lane of
     * a mixed task on one cluster (cube core k, vector cores 2k and 2k + 1) in lane order. The thread that finishes
     * the task's last subtask ({@code block_num × popcount(active_mask)}) completes it.
     */
    private long executeBlock(long raw, Ring ring, int slot) {
        int blocks = ring.blockNum(slot);
        int block = ring.claimBlock(slot);
        CoreType type = ring.coreType(slot);
        if (block + 1 < blocks) {
            engine.requeue(raw, type);
        }
        MixedKernels mixed = ring.mixed(slot);
        int lanes = 1;
        if (mixed == null) {
            if (!run(raw, ring, slot, ring.body(slot), type, nextCore(type), block, blocks, 0)) {
                return ReadyQueue.EMPTY;
            }
        } else {
            int cluster = nextCore(CoreType.AIC);
            lanes = 0;
            TaskBody[] bodies = {mixed.aic(), mixed.aiv0(), mixed.aiv1()};
            for (int lane = 0; lane < bodies.length; lane++) {
                if (bodies[lane] == null) {
                    continue;
                }
                CoreType laneType = lane == 0 ? CoreType.AIC : CoreType.AIV;
                int core = lane == 0 ? cluster : 2 * cluster + lane - 1;
                if (!run(raw, ring, slot, bodies[lane], laneType, core, block, blocks, Math.max(0, lane - 1))) {
                    return ReadyQueue.EMPTY;
                }
                lanes++;
            }
        }
        return ring.finishSubtasks(slot, lanes) ? engine.complete(raw, index, runnable) : ReadyQueue.EMPTY;
    }

    /** This thread's next own core of {@code type}, round robin. */
    private int nextCore(CoreType type) {
        if (type == CoreType.AIC) {
            int core = aicCores[nextAic];
            nextAic = nextAic + 1 == aicCores.length ? 0 : nextAic + 1;
            return core;
        }
        int core = aivCores[nextAiv];
        nextAiv = nextAiv + 1 == aivCores.length ? 0 : nextAiv + 1;
        return core;
    }

    /** Runs {@code body} as one (sub)task of {@code raw} on {@code core}; false when the kernel failed. */
    private boolean run(long raw, Ring ring, int slot, TaskBody body, CoreType type, int core, int block, int blocks,
                        int subBlock) {
        ctx.bind(raw, ring, slot, type, core);
        ctx.block = block;
        ctx.blocks = blocks;
        ctx.subBlock = subBlock;
        engine.setRunning(index, raw, core);
        TaskEvents events = engine.events();
        try {
            if (events == null) {
                body.execute(ctx);
            } else {
                runTraced(events, raw, ring, slot, body, type, core);
            }
        } catch (Throwable t) {
            kernelFailed(raw, ring, slot, type, core, t);
            return false;
        } finally {
            ctx.unbind();
        }
        engine.setRunning(index, -1, -1);
        if (ctx.flops != 0) {
            engine.addWork(index, ctx.flops);
        }
        if (ctx.deviceCycles >= 0) {
            costLog.add(raw, ctx.deviceCycles, ctx.deviceGmBytes, ctx.deviceFootprint);
        }
        return true;
    }

    /** Runs the bound task's kernel between the DFX hooks. */
    private void runTraced(TaskEvents events, long raw, Ring ring, int slot, TaskBody body, CoreType type, int core)
            throws Exception {
        events.dispatchStart(raw, index, type, core, ring.args[slot], ctx);
        long start = System.nanoTime();
        body.execute(ctx);
        events.dispatchEnd(raw, index, type, core, ring.args[slot], ctx, start, System.nanoTime(), ctx.flops,
                ctx.bytesRead, ctx.bytesWritten, Math.max(0, ctx.deviceCycles));
    }

    /** The kernel threw: the run fails with KERNEL_EXCEPTION naming the task, kernel and core (first failure wins). */
    private void kernelFailed(long raw, Ring ring, int slot, CoreType type, int core, Throwable t) {
        engine.setRunning(index, -1, -1);
        if (!engine.latch.failed()) {
            engine.latch.latch(new ChipRuntimeException(ErrorCode.KERNEL_EXCEPTION, "task "
                    + Diagnostics.taskName(raw) + " kernel '" + ring.kernelName(slot) + "' on " + type + " core "
                    + core + " (scheduler thread " + index + ") threw " + t + "; fix the kernel or its inputs", t));
        }
    }

    /** The per-thread, reused task context. */
    private static final class Context implements TaskContext {
        private long raw;
        private Ring ring;
        private int slot;
        private CoreType type;
        private int core;
        long flops;
        long bytesRead;
        long bytesWritten;
        /** The device cost the body reported, or -1 (none: the task costs only the runtime's overheads). */
        long deviceCycles;
        long deviceGmBytes;
        GmFootprint deviceFootprint = GmFootprint.NONE;
        Platform platform;
        int block;
        int blocks = 1;
        int subBlock;

        void bind(long raw, Ring ring, int slot, CoreType type, int core) {
            this.raw = raw;
            this.flops = 0;
            this.bytesRead = 0;
            this.bytesWritten = 0;
            this.deviceCycles = -1;
            this.deviceGmBytes = 0;
            this.deviceFootprint = GmFootprint.NONE;
            this.ring = ring;
            this.slot = slot;
            this.type = type;
            this.core = core;
        }

        void unbind() {
            ring = null;
        }

        private Arg arg(int i) {
            Arg[] a = ring.args[slot];
            if (i < 0 || i >= a.length) {
                throw new IndexOutOfBoundsException("task " + Diagnostics.taskName(raw) + " kernel '"
                        + ring.kernelName(slot) + "' has " + a.length + " arguments; index " + i + " is out of range");
            }
            return a[i];
        }

        @Override
        public Tensor tensor(int argIndex) {
            return switch (arg(argIndex)) {
                case Arg.TensorArg ta -> ta.tensor();
                case Arg.Output o -> ring.outputs[slot][argIndex];
                case Arg.ScalarArg s -> throw new IllegalArgumentException("argument " + argIndex + " of kernel '"
                        + ring.kernelName(slot) + "' is a scalar, not a tensor");
            };
        }

        @Override
        public double scalar(int argIndex) {
            if (arg(argIndex) instanceof Arg.ScalarArg(double v)) {
                return v;
            }
            throw new IllegalArgumentException("argument " + argIndex + " of kernel '" + ring.kernelName(slot)
                    + "' is a tensor, not a scalar");
        }

        @Override
        public int argCount() {
            return ring.args[slot].length;
        }

        @Override
        public long taskId() {
            return raw;
        }

        @Override
        public String kernelName() {
            return ring.kernelName(slot);
        }

        @Override
        public CoreType coreType() {
            return type;
        }

        @Override
        public int coreId() {
            return core;
        }

        @Override
        public int blockIndex() {
            return block;
        }

        @Override
        public int blockNum() {
            return blocks;
        }

        @Override
        public int subBlockIndex() {
            return subBlock;
        }

        @Override
        public void recordWork(long flops, long bytesRead, long bytesWritten) {
            this.flops += flops;
            this.bytesRead += bytesRead;
            this.bytesWritten += bytesWritten;
        }

        @Override
        public void recordDeviceCost(long cycles, long gmBytes) {
            this.deviceCycles = Math.max(0, this.deviceCycles) + cycles;
            this.deviceGmBytes += gmBytes;
        }

        @Override
        public void recordDeviceCost(long cycles, long gmBytes, long[] readLines, long[] writtenLines,
                                     long trackedReadBytes) {
            recordDeviceCost(cycles, gmBytes);
            if (readLines.length > 0 || writtenLines.length > 0) {
                this.deviceFootprint = GmFootprint.union(deviceFootprint,
                        new GmFootprint(readLines, writtenLines, trackedReadBytes));
            }
        }

        @Override
        public Platform platform() {
            return platform;
        }
    }
}
