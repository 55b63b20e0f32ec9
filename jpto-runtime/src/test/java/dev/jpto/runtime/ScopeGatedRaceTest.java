package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression (found by {@code jpto fuzz}, seed 20261288): a ring that is full at the tail the allocator applied
 * but has room at the tail the scheduler published a moment later must not be reported as a scope-gated deadlock.
 * The allocator used to judge "the oldest live task is held by its open scope" at a fresher tail than its
 * admission test, and then failed with code 3 while the ring held a single live task.
 */
@Timeout(120)
@SuppressWarnings("try") // the scope is opened only for its depth
class ScopeGatedRaceTest {
    @Test
    void aRingThatHasRoomIsNeverReportedDeadlocked() {
        // Window 4 holds 3 live tasks; each scope needs 2, so the orchestrator waits on the previous scope's
        // tasks retiring, over and over, racing the schedulers' tail. Before the fix ~40% of these runs failed.
        CallConfig cfg = CallConfig.defaults().withAicpuThreadNum(4)
                .withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(4));
        long[] sum = new long[1];
        try (Chip chip = Chip.open(Platform.A5SIM, 0)) {
            for (int run = 0; run < 40; run++) {
                RunReport report = chip.run(orch -> {
                    for (int i = 0; i < 200; i++) {
                        try (Scope s = orch.scope()) {
                            long p = orch.submit("produce", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, 1),
                                    Arg.output(DType.FP32, 4, 4));
                            Tensor t = orch.output(p, 0);
                            orch.submit("consume", CoreType.AIV, ctx -> {
                                synchronized (sum) {
                                    sum[0] += (long) ctx.tensor(0).getDouble(0);
                                }
                            }, new Arg.TensorArg(t, Direction.INPUT));
                        }
                    }
                }, cfg);
                assertThat(report.tasksExecuted()).isEqualTo(400);
                assertThat(report.ring(1).taskWindowMax()).isLessThanOrEqualTo(3);
            }
        }
        assertThat(sum[0]).isEqualTo(40 * 200);
    }
}
