package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stress for the lock-free claim of {@link Ring#advance()}: however threads interleave their CONSUMED
 * transitions, no advance is lost — the tail always reaches the head.
 */
@Timeout(60)
class RingAdvanceStressTest {

    @Test
    void concurrentConsumersNeverLoseAnAdvance() throws Exception {
        int window = 256;
        int threads = 4;
        Ring ring = new Ring(0, window, 1024, 4, null);
        Random rnd = new Random(7);
        for (int round = 0; round < 300; round++) {
            ring.reset(false);
            int n = window - 1;
            for (int id = 0; id < n; id++) {
                int slot = ring.slotOf(ring.tasks.take());
                ring.initSlot(slot, Ring.taskId(0, id), 0);
                ring.lock(slot);
                ring.markCompletedLocked(slot);
                ring.unlock(slot);
            }
            ring.publishCurrent(n);
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(i);
            }
            Collections.shuffle(ids, rnd);
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<Integer> mine = ids.subList(t * n / threads, (t + 1) * n / threads);
                ts.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    for (int id : mine) {
                        int slot = ring.slotOf(id);
                        ring.releaseFanout(slot, Ring.SCOPE_BIT);
                        if (ring.tryConsume(slot)) {
                            ring.advance();
                        }
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
            assertThat(ring.lastTaskAlive()).as("round %d", round).isEqualTo(n);
        }
    }

    @Test
    void consumersRacingThePublisherNeverLoseAnAdvance() throws Exception {
        int window = 1024;
        int threads = 3;
        Ring ring = new Ring(0, window, 1024, 4, null);
        for (int round = 0; round < 200; round++) {
            ring.reset(false);
            int n = window - 1;
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int me = t;
                ts.add(Thread.ofPlatform().start(() -> {
                    for (int id = me; id < n; id += threads) {
                        while (ring.currentTaskIndex() <= id) {
                            Thread.onSpinWait();
                        }
                        int slot = ring.slotOf(id);
                        ring.lock(slot);
                        ring.markCompletedLocked(slot);
                        ring.unlock(slot);
                        ring.releaseFanout(slot, Ring.SCOPE_BIT);
                        if (ring.tryConsume(slot)) {
                            ring.advance();
                        }
                    }
                }));
            }
            for (int id = 0; id < n; id++) {
                int slot = ring.slotOf(ring.tasks.take());
                ring.initSlot(slot, Ring.taskId(0, id), 0);
                ring.publishCurrent(id + 1);
            }
            for (Thread t : ts) {
                t.join();
            }
            assertThat(ring.lastTaskAlive()).as("round %d", round).isEqualTo(n);
        }
    }
}
