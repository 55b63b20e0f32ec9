package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link Ring#consumeAtScopeEnd}: the scope end consumes a task without atomics only when the scope's reference
 * is the last one — the task completed and every consumer released it — and leaves it exactly as the atomic
 * release would (CONSUMED, scope bit set); otherwise it changes nothing.
 */
class ScopeEndConsumeTest {
    private final Ring ring = new Ring(0, 8, 1024, 4, null);

    private int submitted(int id, int consumers) {
        int slot = ring.slotOf(ring.tasks.take());
        ring.initSlot(slot, Ring.taskId(0, id), 1);
        ring.lock(slot);
        for (int c = 0; c < consumers; c++) {
            ring.addFanoutLocked(slot);
        }
        ring.unlock(slot);
        return slot;
    }

    private void complete(int slot) {
        ring.lock(slot);
        ring.markCompletedLocked(slot);
        ring.unlock(slot);
    }

    @Test
    void completedTaskWithEveryConsumerReleasedIsConsumedWithTheScopeBitSet() {
        int slot = submitted(0, 2);
        complete(slot);
        ring.releaseFanout(slot, 1);
        ring.releaseFanout(slot, 1);
        assertThat(ring.consumeAtScopeEnd(slot)).isTrue();
        assertThat(ring.state(slot)).isEqualTo(Ring.CONSUMED);
        assertThat(ring.scopeReleased(slot)).isTrue();
        assertThat(ring.tryConsume(slot)).as("a late consumer's test finds it consumed").isFalse();
    }

    @Test
    void pendingTaskOrAHeldConsumerReferenceLeavesTheAtomicPath() {
        int pending = submitted(0, 0);
        assertThat(ring.consumeAtScopeEnd(pending)).isFalse();
        assertThat(ring.state(pending)).isEqualTo(Ring.PENDING);
        assertThat(ring.scopeReleased(pending)).isFalse();

        int held = submitted(1, 2);
        complete(held);
        ring.releaseFanout(held, 1);
        assertThat(ring.consumeAtScopeEnd(held)).as("one consumer still holds it").isFalse();
        assertThat(ring.state(held)).isEqualTo(Ring.COMPLETED);
        assertThat(ring.scopeReleased(held)).isFalse();
        ring.releaseFanout(held, Ring.SCOPE_BIT); // the atomic path; the last consumer then consumes it
        ring.releaseFanout(held, 1);
        assertThat(ring.tryConsume(held)).isTrue();
    }
}
