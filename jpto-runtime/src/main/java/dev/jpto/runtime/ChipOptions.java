package dev.jpto.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * Simulator bounds that are not part of {@link CallConfig} (the device has them as platform constants).
 *
 * @param allocDeadlockTimeout wall-clock backstop of every allocator wait without progress (task slot, heap,
 *        dep pool, TensorMap); the spec's 500 ms ({@code PTO2_ALLOC_DEADLOCK_TIMEOUT_CYCLES} = freq/2)
 * @param schedulerTimeout scheduler no-progress watchdog (code 100); the spec's 10000 ms
 * @param tensorDataTimeout bound of an orchestration-time access's wait for the tasks that write (or, for a write,
 *        use) the element (code 8); the spec's 15000 ms ({@code PTO2_TENSOR_DATA_TIMEOUT_MS})
 * @param hostChips how many simulated chips run at once in this process (an L3 run's chips): they share the host's
 *        cores, so the default AICPU thread count divides them ({@link dev.jpto.runtime.Platform#hostAicpuThreadNum})
 */
public record ChipOptions(Duration allocDeadlockTimeout, Duration schedulerTimeout, Duration tensorDataTimeout,
                          int hostChips) {
    public static final Duration DEFAULT_ALLOC_DEADLOCK_TIMEOUT = Duration.ofMillis(500);
    public static final Duration DEFAULT_SCHEDULER_TIMEOUT = Duration.ofMillis(10_000);
    public static final Duration DEFAULT_TENSOR_DATA_TIMEOUT = Duration.ofMillis(15_000);

    public ChipOptions {
        requirePositive("alloc deadlock timeout", allocDeadlockTimeout, DEFAULT_ALLOC_DEADLOCK_TIMEOUT);
        requirePositive("scheduler timeout", schedulerTimeout, DEFAULT_SCHEDULER_TIMEOUT);
        requirePositive("tensor data timeout", tensorDataTimeout, DEFAULT_TENSOR_DATA_TIMEOUT);
        if (hostChips < 1) {
            throw new IllegalArgumentException("host chips must be >= 1: " + hostChips + " (1 for a single chip)");
        }
    }

    /** One chip on this host, the default tensor data timeout. */
    public ChipOptions(Duration allocDeadlockTimeout, Duration schedulerTimeout) {
        this(allocDeadlockTimeout, schedulerTimeout, DEFAULT_TENSOR_DATA_TIMEOUT, 1);
    }

    public static ChipOptions defaults() {
        return new ChipOptions(DEFAULT_ALLOC_DEADLOCK_TIMEOUT, DEFAULT_SCHEDULER_TIMEOUT);
    }

    public ChipOptions withAllocDeadlockTimeout(Duration d) {
        return new ChipOptions(d, schedulerTimeout, tensorDataTimeout, hostChips);
    }

    public ChipOptions withSchedulerTimeout(Duration d) {
        return new ChipOptions(allocDeadlockTimeout, d, tensorDataTimeout, hostChips);
    }

    public ChipOptions withTensorDataTimeout(Duration d) {
        return new ChipOptions(allocDeadlockTimeout, schedulerTimeout, d, hostChips);
    }

    public ChipOptions withHostChips(int chips) {
        return new ChipOptions(allocDeadlockTimeout, schedulerTimeout, tensorDataTimeout, chips);
    }

    private static void requirePositive(String what, Duration d, Duration dflt) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be > 0: " + d + " (default " + dflt.toMillis() + " ms)");
        }
    }
}
