package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression (found by {@code jpto fuzz}, seed 20279401): the TensorMap refreshes its cached tail only every few
 * submits, so a lookup can return writers that already retired. Those need no dep-pool entry, but the
 * orchestrator used to reserve one for each and failed with code 4 on a pool the task fits.
 */
@Timeout(60)
@SuppressWarnings("try") // the scope is opened only for its depth
class StaleTensorMapDepPoolTest {
    @Test
    void edgesToRetiredWritersTakeNoDepPoolEntry() {
        // Ring 1's heap holds exactly one 16x32 fp32 buffer, so every iteration's buffer has the same address and the
        // previous iterations' writers of it stay in the TensorMap until its cached tail catches up. Each iteration
        // needs 3 dep entries (writer: 1 creator edge; reader: creator + writer), the pool has 4.
        CallConfig cfg = CallConfig.defaults().withAicpuThreadNum(3).withRuntimeEnv(RuntimeEnv.defaults()
                .withRingDepPool(4).withRingHeap(0, 2048, 0, 0));
        double[] seen = new double[1];
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            RunReport report = chip.run(orch -> {
                for (int i = 0; i < 8; i++) {
                    try (Scope s = orch.scope()) {
                        long p = orch.submit("produce", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, 1),
                                Arg.output(DType.FP32, 16, 32));
                        Tensor t = orch.output(p, 0);
                        orch.submit("write", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, 2),
                                new Arg.TensorArg(t.slice(new long[] {1, 11}, new long[] {12, 19}),
                                        Direction.OUTPUT_EXISTING));
                        orch.submit("read", CoreType.AIV, ctx -> {
                            synchronized (seen) {
                                seen[0] += ctx.tensor(0).getDouble(0) + ctx.tensor(0).getDouble(43);
                            }
                        }, new Arg.TensorArg(t, Direction.INPUT));
                    }
                }
            }, cfg);
            assertThat(report.tasksExecuted()).isEqualTo(24);
            assertThat(report.ring(1).depPoolMax()).isLessThanOrEqualTo(4);
        }
        assertThat(seen[0]).isEqualTo(8 * (1 + 2));
    }
}
