package dev.jpto.runtime.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ReadyStageTest {
    @Test
    void addsInOrderReportsFullAtCapacityAndTakeEmptiesIt() {
        ReadyStage stage = new ReadyStage();
        long[] out = new long[ReadyStage.CAPACITY];
        assertThat(stage.take(out)).isZero();
        assertThat(stage.nonEmptyHint()).isFalse();
        for (int i = 0; i < ReadyStage.CAPACITY; i++) {
            assertThat(stage.full()).isFalse();
            assertThat(stage.tryAdd(100 + i, i & 1)).as("add %d", i).isTrue();
        }
        assertThat(stage.full()).isTrue();
        assertThat(stage.tryAdd(99, 0)).as("a full stage refuses").isFalse();
        assertThat(stage.nonEmptyHint()).isTrue();
        assertThat(stage.take(out)).isEqualTo(ReadyStage.CAPACITY);
        for (int i = 0; i < ReadyStage.CAPACITY; i++) {
            assertThat(out[i] & ReadyStage.ID_MASK).isEqualTo(100 + i);
            assertThat(out[i] >>> ReadyStage.TYPE_SHIFT).isEqualTo(i & 1);
        }
        assertThat(stage.take(out)).isZero();
        assertThat(stage.tryAdd(7, 1)).isTrue();
        assertThat(stage.take(out)).isEqualTo(1);
        assertThat(out[0]).isEqualTo(7 | 1L << ReadyStage.TYPE_SHIFT);
    }

    /**
     * One adder (flushing when full, like the orchestrator) against three takers on fewer cores: every id is taken
     * exactly once, and no taker fails. A taker preempted between reading {@code top} and {@code bottom} sees more
     * than a stage's worth between them; it must not copy them (it once overran its buffer there).
     */
    @Test
    void concurrentTakersGetEveryStagedIdExactlyOnce() throws InterruptedException {
        int ids = 400_000;
        ReadyStage stage = new ReadyStage();
        AtomicIntegerArray seen = new AtomicIntegerArray(ids);
        AtomicBoolean done = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> takers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Thread thread = new Thread(() -> {
                long[] out = new long[ReadyStage.CAPACITY];
                while (!done.get() || stage.nonEmptyHint()) {
                    int n = stage.take(out);
                    for (int i = 0; i < n; i++) {
                        seen.incrementAndGet((int) out[i]);
                    }
                }
            });
            thread.setUncaughtExceptionHandler((th, e) -> failures.add(e));
            takers.add(thread);
            thread.start();
        }
        long[] own = new long[ReadyStage.CAPACITY];
        for (int id = 0; id < ids; id++) {
            while (!stage.tryAdd(id, 0)) { // full: take the stage as the orchestrator does, then retry
                int n = stage.take(own);
                for (int i = 0; i < n; i++) {
                    seen.incrementAndGet((int) own[i]);
                }
            }
        }
        done.set(true);
        for (Thread thread : takers) {
            thread.join(10_000);
            assertThat(thread.isAlive()).isFalse();
        }
        assertThat(failures).as("taker failures").isEmpty();
        int rest = stage.take(own);
        for (int i = 0; i < rest; i++) {
            seen.incrementAndGet((int) own[i]);
        }
        for (int id = 0; id < ids; id++) {
            assertThat(seen.get(id)).as("id %d", id).isEqualTo(1);
        }
    }
}
