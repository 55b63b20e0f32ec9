package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.runtime.chip.Chip;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fanin edges past the inline cap spill to a ring's spill pool, whose entries are reclaimed as their tasks
 * retire: many consumers of 70 producers each spill six edges apiece, 240 in all through a pool of 128, and every
 * consumer still sees all its producers' values (the spilled RETAIN edges are found and released at completion).
 */
@Timeout(60)
@SuppressWarnings("try") // scopes opened only for their depth
class FaninSpillReuseTest {
    private static final int ROUNDS = 40;
    private static final int PRODUCERS = dev.jpto.runtime.ring.Ring.FANIN_INLINE_CAP + 6;

    @Test
    void spilledEdgesAreReclaimedAndReusedAcrossManyConsumers() {
        AtomicLongArray sums = new AtomicLongArray(ROUNDS);
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            RunReport report = chip.run(orch -> {
                for (int round = 0; round < ROUNDS; round++) {
                    int r = round;
                    try (Scope s = orch.scope()) {
                        Arg[] ins = new Arg[PRODUCERS];
                        for (int i = 0; i < PRODUCERS; i++) {
                            long value = round * 1000L + i;
                            long p = orch.submit("leaf", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, value),
                                    Arg.output(DType.INT32, 1));
                            ins[i] = Arg.input(orch.output(p, 0));
                        }
                        orch.submit("sum", CoreType.AIC, ctx -> {
                            long sum = 0;
                            for (int i = 0; i < PRODUCERS; i++) {
                                sum += (long) ctx.tensor(i).getDouble(0);
                            }
                            sums.set(r, sum);
                        }, ins);
                    }
                }
            }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingDepPool(0, 128, 0, 0)));
            assertThat(report.ring(1).depPool()).isEqualTo(128);
        }
        for (int round = 0; round < ROUNDS; round++) {
            long expected = 0;
            for (int i = 0; i < PRODUCERS; i++) {
                expected += round * 1000L + i;
            }
            assertThat(sums.get(round)).as("round %d", round).isEqualTo(expected);
        }
    }
}
