package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A producer's slot holds its first {@value Ring#INLINE_FANOUTS} consumers itself; the rest go to dep-pool nodes.
 * An inline consumer still takes a dep-pool entry (unwritten), so pool use is what the spec counts.
 */
class InlineFanoutTest {
    @Test
    void firstConsumersAreHeldInlineWithTheirRingAndASlotReuseForgetsThem() {
        Ring ring = new Ring(2, 8, 1024, 8, null);
        int slot = ring.slotOf(ring.tasks.take());
        ring.initSlot(slot, Ring.taskId(2, 0), 2);
        long[] consumers = {Ring.taskId(3, 0xFFFF_FFF0), Ring.taskId(1, 7), Ring.taskId(0, 9)};
        ring.lock(slot);
        for (int i = 0; i < Ring.INLINE_FANOUTS; i++) {
            assertThat(ring.addInlineFanoutLocked(slot, consumers[i])).isTrue();
        }
        assertThat(ring.addInlineFanoutLocked(slot, consumers[2])).as("inline part full").isFalse();
        assertThat(ring.inlineFanouts(slot)).isEqualTo(Ring.INLINE_FANOUTS);
        for (int i = 0; i < Ring.INLINE_FANOUTS; i++) {
            assertThat(ring.inlineFanout(slot, i)).isEqualTo(consumers[i]);
        }
        ring.unlock(slot);
        ring.initSlot(slot, Ring.taskId(2, 8), 2);
        assertThat(ring.inlineFanouts(slot)).isZero();
    }

    @Test
    void aReservedEntryCountsLikeANode() {
        DepPool pool = new DepPool(0, 4);
        pool.reserve();
        pool.alloc(Ring.taskId(0, 1), DepPool.NULL);
        pool.reserve();
        assertThat(pool.used()).isEqualTo(3);
        assertThat(pool.highWater()).isEqualTo(3);
        assertThat(pool.hasSpace(1)).isTrue();
        assertThat(pool.hasSpace(2)).isFalse();
    }
}
