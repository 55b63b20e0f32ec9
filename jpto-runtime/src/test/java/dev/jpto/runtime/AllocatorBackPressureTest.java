package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The allocator backstop (alloc deadlock timeout) fires only when the chip stops completing tasks, not when one
 * ring waits longer than the timeout for work on another ring. The dsv4 prefill layer (tiny) hit exactly that:
 * ring 2's oldest task waited for ~1000 ring-1 tasks, ring 2's dep pool filled with the entries of the tasks
 * submitted meanwhile, and after 500 ms without a ring-2 reclaim the run failed with code 4, although the pool
 * had the room the static plan asks for once that work was done.
 */
@Timeout(60)
@SuppressWarnings("try") // scopes opened only for their depth
class AllocatorBackPressureTest {
    private static final int CHAIN = 100;
    private static final int CONSUMERS = 6;
    private Chip chip;
    private Arena arena;

    @BeforeEach
    void open() {
        chip = Chip.open(Platform.A2A3SIM, 0, ChipOptions.defaults().withAllocDeadlockTimeout(Duration.ofMillis(1000)));
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() {
        chip.close();
        arena.close();
    }

    @Test
    void aDepPoolWaitBehindAnotherRingsLongChainIsBackPressure() {
        Tensor x = Tensor.allocate(arena, DType.INT32, 1);
        AtomicLongArray seen = new AtomicLongArray(CONSUMERS);
        RunReport report = chip.run(orch -> {
            // ring 0: a serial chain that outlasts the alloc timeout (CHAIN × 25 ms ≫ 1 s), completing steadily
            // (a 1 s backstop leaves room for a loaded machine's scheduling gaps between completions: at load 27 on
            // 2 cores, 300 ms was not enough)
            for (int i = 0; i < CHAIN; i++) {
                orch.submit("chain", CoreType.AIV, ctx -> {
                    Thread.sleep(25);
                    ctx.tensor(0).setDouble(0, ctx.tensor(0).getDouble(0) + 1);
                }, Arg.inout(x));
            }
            Tensor copy;
            try (Scope s = orch.scope()) { // ring 1: one task waiting for the chain's end (1 dep entry)
                long a = orch.submit("copy", CoreType.AIV, ctx -> ctx.tensor(1).setDouble(0, ctx.tensor(0).getDouble(0)),
                        Arg.input(x), Arg.output(DType.INT32, 1));
                copy = orch.output(a, 1);
            }
            for (int k = 0; k < CONSUMERS; k++) { // each alone in its scope: 1 entry pinned; the 4th must wait
                int slot = k;
                try (Scope s = orch.scope()) {
                    orch.submit("use", CoreType.AIV, ctx -> seen.set(slot, (long) ctx.tensor(0).getDouble(0)),
                            Arg.input(copy));
                }
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingDepPool(0, 4, 0, 0)));

        for (int k = 0; k < CONSUMERS; k++) {
            assertThat(seen.get(k)).as("consumer " + k).isEqualTo(CHAIN);
        }
        assertThat(x.getDouble(0)).isEqualTo(CHAIN);
        assertThat(report.ring(1).depPool()).isEqualTo(4);
        assertThat(report.ring(1).depPoolMax()).as("the pool filled, so the orchestrator waited").isEqualTo(4);
    }
}
