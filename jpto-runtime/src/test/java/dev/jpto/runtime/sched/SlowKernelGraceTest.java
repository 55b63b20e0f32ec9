package dev.jpto.runtime.sched;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The watchdog's rule for a kernel still running at the timeout: blocked fails, computing waits, within bounds. */
class SlowKernelGraceTest {
    private static final long T = 10_000_000_000L; // a 10 s timeout
    private static final long WINDOW = T / 4;

    @Test
    void aBlockedKernelFailsAtOnce() {
        // 1 ms of CPU in a 2.5 s window: waiting on something, not computing
        assertThat(SlowKernelGrace.verdict(WINDOW, 1_000_000, 1_000_000, T + WINDOW, T)).isFalse();
    }

    @Test
    void aComputingKernelWaitsUntilItUsedTheTimeoutInCpuTime() {
        // 6 % of a core (load 30 on 2 cores): computing
        long cpu = WINDOW * 6 / 100;
        assertThat(SlowKernelGrace.verdict(WINDOW, cpu, cpu, T + WINDOW, T)).isTrue();
        assertThat(SlowKernelGrace.verdict(WINDOW, cpu, T - 1, 5 * T, T)).isTrue();
        assertThat(SlowKernelGrace.verdict(WINDOW, cpu, T, 5 * T, T)).as("used the timeout in CPU time").isFalse();
    }

    @Test
    void noKernelWaitsPastTenTimeouts() {
        long cpu = WINDOW / 2;
        assertThat(SlowKernelGrace.verdict(WINDOW, cpu, T / 2, SlowKernelGrace.MAX_WALL_FACTOR * T - 1, T)).isTrue();
        assertThat(SlowKernelGrace.verdict(WINDOW, cpu, T / 2, SlowKernelGrace.MAX_WALL_FACTOR * T, T)).isFalse();
    }

    @Test
    void theThresholdBetweenBlockedAndComputingIsTwoPercent() {
        assertThat(SlowKernelGrace.verdict(5000, 100, 100, T, T)).isTrue();
        assertThat(SlowKernelGrace.verdict(5000, 99, 99, T, T)).isFalse();
    }
}
