package dev.jpto.runtime.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Random;
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
}
