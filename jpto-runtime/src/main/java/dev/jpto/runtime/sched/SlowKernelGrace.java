package dev.jpto.runtime.sched;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Tells a stuck kernel from a slow one when the scheduler watchdog's timeout has passed with a kernel running.
 * A simulated kernel runs thousands of times slower than on the device, and on a loaded host its thread gets a
 * fraction of a core, so a legitimate kernel can outlast the device's 10 s rule (a cold dsv4 pro kernel at load 16
 * did). From the timeout on, the watchdog samples the CPU time of the threads running the same kernels every
 * quarter timeout: a kernel whose threads got less than 2 % of the window's wall time is blocked (a thread
 * waiting uses microseconds; one computing at load 30 on 2 cores still gets ~6 %), and fails at
 * once; one that computes keeps running until it has used the timeout in CPU time, and never past
 * {@link #MAX_WALL_FACTOR} timeouts of wall time, so the wait stays bounded.
 */
final class SlowKernelGrace {
    /** The wall-time bound of a computing kernel, in scheduler timeouts. */
    static final int MAX_WALL_FACTOR = 10;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long[] taskAtCheck;
    private final long[] cpuAtCheck;
    private boolean active;
    private long checkedAt;
    private long cpuUsed;
    private long endedAt = -1;

    SlowKernelGrace(int threads) {
        taskAtCheck = new long[threads];
        cpuAtCheck = new long[threads];
    }

    /** A task completed: the next expiry starts a new grace. */
    void reset() {
        active = false;
        endedAt = -1;
    }

    /**
     * No kernel runs now: true for a quarter timeout after one ran at a check. Its completion is then a moment
     * away (a scheduler thread clears its running slot before it counts the completion, and may lose its core in
     * between), so the caller looks again before it reports a stall with nothing running.
     */
    boolean kernelJustEnded(long now, long timeoutNanos) {
        if (!active) {
            return false;
        }
        if (endedAt < 0) {
            endedAt = now;
        }
        if (now - endedAt < timeoutNanos / 4) {
            return true;
        }
        active = false;
        return false;
    }

    /** CPU time the running kernels used since the grace began (ns). */
    long cpuUsedNanos() {
        return cpuUsed;
    }

    /**
     * Whether to wait on: called once the timeout has passed with {@code runningTask[t]} (−1 when idle) on the
     * scheduler threads {@code threadIds}, {@code stalledNanos} after the last completion.
     */
    boolean waitOn(long now, long stalledNanos, long timeoutNanos, long[] runningTask, long[] threadIds) {
        if (!THREADS.isThreadCpuTimeSupported() || !THREADS.isThreadCpuTimeEnabled()) {
            return false;
        }
        endedAt = -1;
        if (!active) {
            active = true;
            checkedAt = now;
            cpuUsed = 0;
            sample(runningTask, threadIds);
            return true;
        }
        long window = now - checkedAt;
        if (window < timeoutNanos / 4) {
            return true;
        }
        long cpu = sample(runningTask, threadIds);
        checkedAt = now;
        cpuUsed += cpu;
        return verdict(window, cpu, cpuUsed, stalledNanos, timeoutNanos);
    }

    /**
     * The rule: wait on while the kernels compute (CPU ≥ 2 % of the window), have used less than the timeout in
     * CPU time, and the stall is shorter than {@link #MAX_WALL_FACTOR} timeouts.
     */
    static boolean verdict(long windowNanos, long windowCpuNanos, long cpuUsedNanos, long stalledNanos,
                           long timeoutNanos) {
        boolean computing = windowCpuNanos * 50 >= windowNanos;
        return computing && cpuUsedNanos < timeoutNanos && stalledNanos < MAX_WALL_FACTOR * timeoutNanos;
    }

    /** CPU time since the last sample of the threads that run the same task as then; records this sample. */
    private long sample(long[] runningTask, long[] threadIds) {
        long sum = 0;
        for (int t = 0; t < taskAtCheck.length; t++) {
            long cpu = runningTask[t] >= 0 ? THREADS.getThreadCpuTime(threadIds[t]) : -1;
            if (cpu >= 0 && runningTask[t] == taskAtCheck[t] && cpuAtCheck[t] >= 0) {
                sum += cpu - cpuAtCheck[t];
            }
            taskAtCheck[t] = runningTask[t];
            cpuAtCheck[t] = cpu;
        }
        return sum;
    }
}
