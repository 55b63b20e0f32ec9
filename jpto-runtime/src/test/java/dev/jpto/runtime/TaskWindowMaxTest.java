package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.runtime.chip.Chip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * task_window_max is the peak of {@code current − last_task_alive} after each allocation, at the tail the allocator
 * applied (it re-reads the scheduler's tail only every few submits, or when the ring is full). The cases here have
 * one answer whatever the threads' timing.
 */
@Timeout(60)
@SuppressWarnings("try") // scopes are opened for their depth (ring 1)
class TaskWindowMaxTest {
    private static final TaskBody EMPTY = ctx -> { };
    private static final CallConfig WINDOW_8 = CallConfig.defaults()
            .withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(8));

    @Test
    void aScopeHoldsItsTasksUntilItEnds() throws Exception {
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            for (int n = 1; n <= 7; n++) {
                assertThat(peakOfRing1(chip, WINDOW_8, null, n)).as("one scope of %d", n).isEqualTo(n);
            }
        }
    }

    @Test
    void aFullRingWaitsSoThePeakStaysAtWindowMinusOne() throws Exception {
        // The second scope finds 7 live tasks at the stale tail: full, so the allocator waits for a reclaim. The
        // peak (7) was reached before that reclaim and is never exceeded after it.
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            for (int k = 1; k <= 7; k++) {
                assertThat(peakOfRing1(chip, WINDOW_8, null, 7, k)).as("scopes of 7 and %d", k).isEqualTo(7);
            }
        }
    }

    @Test
    void nothingRetiresBehindAHeldTaskSoEveryTaskCounts() throws Exception {
        // The run's first task waits until the orchestration is over: the tail stays at it, so the peak is the
        // number of tasks however the scopes split them.
        CallConfig window16 = CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(16));
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            assertThat(peakOfRing1(chip, window16, new boolean[1], 3, 5, 1, 6)).isEqualTo(15);
            assertThat(peakOfRing1(chip, window16, new boolean[1], 1, 1, 1)).isEqualTo(3);
        }
    }

    /** Runs one depth-1 scope per entry of {@code sizes}; with {@code gate}, the first task waits for the end. */
    private static long peakOfRing1(Chip chip, CallConfig cfg, boolean[] gate, int... sizes) {
        Object lock = new Object();
        TaskBody first = gate == null ? EMPTY : ctx -> {
            synchronized (lock) {
                long until = System.nanoTime() + 20_000_000_000L;
                while (!gate[0] && System.nanoTime() < until) {
                    try {
                        lock.wait(1000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        };
        RunReport report = chip.run(orch -> {
            boolean firstTask = true;
            for (int n : sizes) {
                try (Scope s = orch.scope()) {
                    for (int i = 0; i < n; i++) {
                        orch.submit("empty", CoreType.AIV, firstTask ? first : EMPTY);
                        firstTask = false;
                    }
                }
            }
            if (gate != null) {
                synchronized (lock) {
                    gate[0] = true;
                    lock.notifyAll();
                }
            }
        }, cfg);
        assertThat(report.ring(0).taskWindowMax()).isZero();
        return report.ring(1).taskWindowMax();
    }
}
