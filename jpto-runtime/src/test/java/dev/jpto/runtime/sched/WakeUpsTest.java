package dev.jpto.runtime.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The idle protocol of the scheduler threads: one spinner at a time, a push wakes a parked thread only when
 * nobody spins, and no push is lost to a thread that parks at the same moment.
 */
@Timeout(60)
class WakeUpsTest {

    @Test
    void onlyOneThreadSpinsAtATime() {
        WakeUps w = new WakeUps(new Thread[3]);
        assertThat(w.trySpin()).isTrue();
        assertThat(w.trySpin()).isFalse();
        w.endSpin();
        assertThat(w.trySpin()).isTrue();
    }

    @Test
    void aPushWakesAParkedThreadOnlyWhenNobodySpins() throws Exception {
        CountDownLatch flagged = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread[] threads = new Thread[1];
        WakeUps w = new WakeUps(threads);
        threads[0] = Thread.ofPlatform().unstarted(() -> {
            w.announcePark(0);
            flagged.countDown();
            // Parks until signalled (the pusher clears the flag before unparking); spurious returns re-park.
            while (w.isFlagged(0)) {
                LockSupport.parkNanos(10_000_000);
            }
            w.parkDone(0);
            done.countDown();
        });
        threads[0].start();
        flagged.await();

        assertThat(w.trySpin()).isTrue();
        w.signal(1); // a spinner takes the push: the parked thread stays parked
        assertThat(w.isFlagged(0)).isTrue();

        w.endSpin();
        w.signal(1);
        assertThat(w.isFlagged(0)).isFalse();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        threads[0].join();
    }

    /**
     * A pusher against threads that spin, give up and park with the protocol (announce, poll again, park).
     * Every 8th push comes after the threads ran dry and parked, and must be taken although parks last a
     * minute: a lost wake-up leaves it in the queue and fails the test.
     */
    @Test
    void noPushIsLost() throws Exception {
        int workers = 3;
        int items = 2_000;
        ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
        AtomicLong taken = new AtomicLong();
        Thread[] threads = new Thread[workers];
        WakeUps w = new WakeUps(threads);
        for (int t = 0; t < workers; t++) {
            int index = t;
            threads[t] = Thread.ofPlatform().daemon().unstarted(() -> {
                while (taken.get() < items) {
                    Integer item = queue.poll();
                    if (item == null && w.trySpin()) {
                        for (int i = 0; i < 16 && item == null; i++) {
                            Thread.onSpinWait();
                            item = queue.poll();
                        }
                        w.endSpin();
                    }
                    if (item == null) {
                        w.announcePark(index);
                        item = queue.poll();
                        if (item == null && taken.get() < items) {
                            LockSupport.parkNanos(60_000_000_000L);
                        }
                        w.parkDone(index);
                    }
                    if (item != null) {
                        taken.incrementAndGet();
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        try {
            for (int i = 0; i < items; i++) {
                boolean afterParks = (i & 7) == 0;
                if (afterParks) {
                    Thread.sleep(1);
                }
                queue.offer(i);
                w.signal(1);
                if (afterParks) {
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    while (taken.get() <= i && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    assertThat(taken.get()).as("items taken after push %d", i).isEqualTo(i + 1);
                }
            }
            // the last pushes had no wait of their own: every item must still be taken, within a bound
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (taken.get() < items && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        } finally {
            taken.set(items);
            for (Thread t : threads) {
                LockSupport.unpark(t);
            }
        }
        assertThat(queue).isEmpty();
    }
}
