package dev.jpto.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * Simulator bounds that are not part of {@link CallConfig} (the device has them as platform constants).
 *
 * @param allocDeadlockTimeout wall-clock backstop of every allocator wait without progress (task slot, heap,
 *        dep pool, TensorMap); the spec's 500 ms ({@code PTO2_ALLOC_DEADLOCK_TIMEOUT_CYCLES} = freq/2)
 * @param schedulerTimeout scheduler no-progress watchdog (code 100); the spec's 10000 ms
 * @param hostChips how many simulated chips run at once in this process (an L3 run's chips): they share the host's
 *        cores, so the default AICPU thread count divides them ({@link dev.jpto.runtime.Platform#hostAicpuThreadNum})
 */
public record ChipOptions(Duration allocDeadlockTimeout, Duration schedulerTimeout, int hostChips) {
    public static final Duration DEFAULT_ALLOC_DEADLOCK_TIMEOUT = Duration.ofMillis(500);
    public static final Duration DEFAULT_SCHEDULER_TIMEOUT = Duration.ofMillis(10_000);

    public ChipOptions {
        Objects.requireNonNull(allocDeadlockTimeout, "allocDeadlockTimeout");
        Objects.requireNonNull(schedulerTimeout, "schedulerTimeout");
        if (allocDeadlockTimeout.isNegative() || allocDeadlockTimeout.isZero()) {
            throw new IllegalArgumentException("alloc deadlock timeout must be > 0: " + allocDeadlockTimeout
                    + " (default " + DEFAULT_ALLOC_DEADLOCK_TIMEOUT.toMillis() + " ms)");
        }
        if (schedulerTimeout.isNegative() || schedulerTimeout.isZero()) {
            throw new IllegalArgumentException("scheduler timeout must be > 0: " + schedulerTimeout
                    + " (default " + DEFAULT_SCHEDULER_TIMEOUT.toMillis() + " ms)");
        }
        if (hostChips < 1) {
            throw new IllegalArgumentException("host chips must be >= 1: " + hostChips + " (1 for a single chip)");
        }
    }

    /** One chip on this host. */
    public ChipOptions(Duration allocDeadlockTimeout, Duration schedulerTimeout) {
        this(allocDeadlockTimeout, schedulerTimeout, 1);
    }

    public static ChipOptions defaults() {
        return new ChipOptions(DEFAULT_ALLOC_DEADLOCK_TIMEOUT, DEFAULT_SCHEDULER_TIMEOUT);
    }

    public ChipOptions withAllocDeadlockTimeout(Duration d) {
        return new ChipOptions(d, schedulerTimeout, hostChips);
    }

    public ChipOptions withSchedulerTimeout(Duration d) {
        return new ChipOptions(allocDeadlockTimeout, d, hostChips);
    }

    public ChipOptions withHostChips(int chips) {
        return new ChipOptions(allocDeadlockTimeout, schedulerTimeout, chips);
    }
}
