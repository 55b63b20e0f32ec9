package dev.jpto.runtime.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ReadyQueueTest {
    @Test
    void behavesAsABoundedFifoAndTheHintTracksEmptiness() {
        ReadyQueue q = new ReadyQueue(8);
        ArrayDeque<Long> reference = new ArrayDeque<>();
        Random rnd = new Random(7);
        long next = 0;
        for (int step = 0; step < 10_000; step++) { // many laps of the 8 cells
            if (rnd.nextBoolean()) {
                boolean accepted = q.offer(next);
                assertThat(accepted).isEqualTo(reference.size() < 8);
                if (accepted) {
                    reference.addLast(next);
                }
                next++;
            } else {
                Long expected = reference.pollFirst();
                assertThat(q.poll()).isEqualTo(expected == null ? ReadyQueue.EMPTY : expected);
            }
            assertThat(q.nonEmptyHint()).isEqualTo(!reference.isEmpty());
            assertThat(q.size()).isEqualTo(reference.size());
        }
    }

    /** Batches of random sizes (0 to the capacity) against the same FIFO reference: all in, in order, or none. */
    @Test
    void offerAllAddsAWholeBatchInOrderOrNothingWhenItDoesNotFit() {
        ReadyQueue q = new ReadyQueue(8);
        ArrayDeque<Long> reference = new ArrayDeque<>();
        Random rnd = new Random(11);
        long[] batch = new long[12];
        long next = 0;
        for (int step = 0; step < 10_000; step++) {
            if (rnd.nextBoolean()) {
                int from = rnd.nextInt(4);
                int n = rnd.nextInt(9);
                for (int i = 0; i < n; i++) {
                    batch[from + i] = next + i;
                }
                boolean accepted = q.offerAll(batch, from, n);
                assertThat(accepted).as("step %d: %d into %d of 8", step, n, reference.size())
                        .isEqualTo(reference.size() + n <= 8);
                if (accepted) {
                    for (int i = 0; i < n; i++) {
                        reference.addLast(next + i);
                    }
                }
                next += n;
            } else {
                Long expected = reference.pollFirst();
                assertThat(q.poll()).isEqualTo(expected == null ? ReadyQueue.EMPTY : expected);
            }
            assertThat(q.size()).isEqualTo(reference.size());
        }
    }

    /** Two batch offerers and two single offerers against three pollers on two cores: every id polled once. */
    @Test
    void concurrentBatchAndSingleOffersArePolledExactlyOnce() throws InterruptedException {
        int perOfferer = 100_000;
        int offerers = 4;
        ReadyQueue q = new ReadyQueue(64);
        AtomicIntegerArray seen = new AtomicIntegerArray(perOfferer * offerers);
        AtomicBoolean done = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int o = 0; o < offerers; o++) {
            int base = o * perOfferer;
            boolean batches = o < 2;
            threads.add(new Thread(() -> {
                long[] batch = new long[16];
                Random rnd = new Random(base);
                int id = 0;
                while (id < perOfferer) {
                    int n = batches ? Math.min(perOfferer - id, 1 + rnd.nextInt(16)) : 1;
                    for (int i = 0; i < n; i++) {
                        batch[i] = base + id + i;
                    }
                    while (!(batches ? q.offerAll(batch, 0, n) : q.offer(batch[0]))) {
                        Thread.onSpinWait(); // full: the pollers make room
                    }
                    id += n;
                }
            }));
        }
        List<Thread> pollers = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            pollers.add(new Thread(() -> {
                while (!done.get() || q.nonEmptyHint()) {
                    long v = q.poll();
                    if (v != ReadyQueue.EMPTY) {
                        seen.incrementAndGet((int) v);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, e) -> failures.add(e));
            t.start();
        }
        for (Thread t : pollers) {
            t.setUncaughtExceptionHandler((th, e) -> failures.add(e));
            t.start();
        }
        for (Thread t : threads) {
            t.join(30_000);
            assertThat(t.isAlive()).as("offerer finished").isFalse();
        }
        done.set(true);
        for (Thread t : pollers) {
            t.join(10_000);
            assertThat(t.isAlive()).as("poller finished").isFalse();
        }
        assertThat(failures).isEmpty();
        for (int id = 0; id < seen.length(); id++) {
            assertThat(seen.get(id)).as("id %d", id).isEqualTo(1);
        }
    }
}
