package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.Timeout;

/**
 * Random programs on random ring sizes and thread counts: a run either produces exactly the sequential
 * reference's host buffers, or fails with one of the allocator codes (never hangs, never another error).
 */
@Timeout(120)
class RuntimeVsReferenceProperties {
    private static final Set<ErrorCode> ALLOWED = EnumSet.of(ErrorCode.SCOPE_DEADLOCK, ErrorCode.HEAP_RING_DEADLOCK,
            ErrorCode.FLOW_CONTROL_DEADLOCK, ErrorCode.DEP_POOL_OVERFLOW, ErrorCode.TENSORMAP_OVERFLOW);
    private static Chip[] chips;

    @BeforeContainer
    static void open() {
        ChipOptions opts = ChipOptions.defaults().withAllocDeadlockTimeout(Duration.ofMillis(300));
        chips = new Chip[] {Chip.open(Platform.A2A3SIM, 0, opts), Chip.open(Platform.A5SIM, 1, opts)};
    }

    @AfterContainer
    static void close() {
        for (Chip c : chips) {
            c.close();
        }
    }

    @Property(tries = 150, seed = "20261202")
    void runtimeMatchesSequentialReference(@ForAll long seed) throws Exception {
        RandomProgram prog = RandomProgram.generate(seed, 60);
        Random r = new Random(seed * 7 + 1);
        RuntimeEnv env = RuntimeEnv.defaults()
                .withRingTaskWindow(pick(r, 16, 64, 0, 0), pick(r, 8, 16, 64, 0), pick(r, 8, 32, 0),
                        pick(r, 4, 8, 32, 0))
                .withRingHeap(pick(r, 8192, 65536, 0), pick(r, 2048, 8192, 0), pick(r, 2048, 0),
                        pick(r, 1024, 4096, 0))
                .withRingDepPool(pick(r, 16, 64, 0), pick(r, 8, 16, 0), pick(r, 8, 0), pick(r, 4, 8, 0));
        int threads = 2 + r.nextInt(3);
        Chip chip = chips[r.nextInt(2)];
        try (Arena arena = Arena.ofShared()) {
            Tensor[] expected = RandomProgram.hostBuffers(arena, prog.buffers, seed);
            Tensor[] actual = RandomProgram.hostBuffers(arena, prog.buffers, seed);
            prog.runReference(arena, expected);
            try {
                RunReport rep = chip.run(prog.orchestration(actual),
                        CallConfig.defaults().withAicpuThreadNum(threads).withRuntimeEnv(env));
                assertThat(rep.tasksExecuted()).isEqualTo(prog.taskCount());
                for (int b = 0; b < prog.buffers; b++) {
                    assertThat(actual[b].toDoubleArray()).as("buffer %d, env %s, threads %d", b, env, threads)
                            .containsExactly(expected[b].toDoubleArray());
                }
                for (int ring = 0; ring < 4; ring++) {
                    RunReport.Ring rr = rep.ring(ring);
                    assertThat(rr.taskWindowMax()).isLessThanOrEqualTo(rr.taskWindow() - 1);
                    assertThat(rr.heapMax()).isLessThanOrEqualTo(rr.heapBytes());
                    assertThat(rr.depPoolMax()).isLessThanOrEqualTo(rr.depPool());
                }
                Statistics.collect("ok");
            } catch (ChipRuntimeException e) {
                assertThat(ALLOWED).as(e.getMessage()).contains(e.error());
                Statistics.collect(e.error());
                // The failure was the sizes' fault: the same program on the same chip passes at default sizes.
                Tensor[] again = RandomProgram.hostBuffers(arena, prog.buffers, seed);
                chip.run(prog.orchestration(again), CallConfig.defaults().withAicpuThreadNum(threads));
                for (int b = 0; b < prog.buffers; b++) {
                    assertThat(again[b].toDoubleArray()).containsExactly(expected[b].toDoubleArray());
                }
            }
        }
    }

    private static long pick(Random r, long... choices) {
        return choices[r.nextInt(choices.length)];
    }
}
