package dev.jpto.runtime.sched;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.runtime.ChipOptions;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.ring.NativeRegion;
import dev.jpto.runtime.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * A scheduler thread that hits a runtime bug (here: a ready id that names no ring) fails the run at once with a
 * code and a message, instead of dying and leaving the run to the watchdog; and it serves the next run.
 */
class SchedulerThreadFailureTest {
    @Test
    void aRuntimeBugOnASchedulerThreadFailsTheRunAndTheThreadServesTheNextRun() throws InterruptedException {
        Ring[] rings = new Ring[4];
        for (int r = 0; r < rings.length; r++) {
            rings[r] = new Ring(r, 16, 4096, 16, NativeRegion.reserve(4096, "test ring " + r));
        }
        Engine engine = new Engine(Platform.A2A3SIM, rings, 2, ChipOptions.defaults());
        engine.startWorkers("failure-test-sched-");
        try {
            engine.reset(true);
            engine.beginRun();
            engine.ready[CoreType.AIV.ordinal()].offer(7L << 32); // ring 7 does not exist
            ChipRuntimeException e = awaitLatched(engine);
            assertThat(e.orchErrorCode()).isZero();
            assertThat(e.schedErrorCode()).isEqualTo(ErrorCode.SCHEDULER_TIMEOUT.code());
            assertThat(e.getMessage()).contains("scheduler thread", "ArrayIndexOutOfBoundsException",
                    "this is a runtime bug");
            assertThat(engine.endRun(1000, 1000)).as("threads leave the failed run").isTrue();

            engine.reset(true);
            engine.beginRun();
            engine.ready[CoreType.AIV.ordinal()].offer(7L << 32);
            assertThat(awaitLatched(engine).getMessage()).as("the threads live on").contains("scheduler thread");
            assertThat(engine.endRun(1000, 1000)).isTrue();
        } finally {
            engine.shutdown();
            for (Ring r : rings) {
                r.region.close();
            }
        }
    }

    private static ChipRuntimeException awaitLatched(Engine engine) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!engine.latch.failed() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(engine.latch.failed()).as("latched within 5 s").isTrue();
        return engine.latch.get();
    }
}
