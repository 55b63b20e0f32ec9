package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskRingAndDepPoolTest {

    @Test
    void taskRingAdmitsWindowMinusOneLiveTasks() {
        TaskRing t = new TaskRing(8);
        int lastAlive = 0;
        for (int i = 0; i < 7; i++) {
            assertThat(t.full(lastAlive)).isFalse();
            assertThat(t.take()).isEqualTo(i);
        }
        assertThat(t.active(lastAlive)).isEqualTo(7);
        assertThat(t.full(lastAlive)).as("one slot is always kept free").isTrue();
        lastAlive = 1;
        assertThat(t.full(lastAlive)).isFalse();
        assertThat(t.take()).isEqualTo(7);
        assertThat(t.slotOf(7)).isEqualTo(7);
        assertThat(t.slotOf(8)).isEqualTo(0);
    }

    @Test
    void taskRingNeedsAPowerOfTwoAtLeastFour() {
        assertThatThrownBy(() -> new TaskRing(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaskRing(12)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new TaskRing(4).window()).isEqualTo(4);
    }

    @Test
    void depPoolIsFullAtCapacityAndReclaimsToMarks() {
        DepPool p = new DepPool(2, 4);
        assertThat(p.top()).as("entry 0 is the null sentinel").isEqualTo(1);
        long n1 = p.alloc(100, DepPool.NULL);
        long n2 = p.alloc(101, n1);
        long n3 = p.alloc(102, n2);
        assertThat(p.hasSpace(1)).isTrue();
        assertThat(p.hasSpace(2)).isFalse();
        long n4 = p.alloc(103, n3);
        assertThat(p.used()).isEqualTo(4);
        assertThat(p.hasSpace(1)).as("full when used >= capacity").isFalse();
        assertThatThrownBy(() -> p.alloc(104, n4)).isInstanceOf(IllegalStateException.class);
        assertThat(DepPool.ringOf(n4)).isEqualTo(2);
        assertThat(p.consumerAt(n4)).isEqualTo(103);
        assertThat(p.nextAt(n4)).isEqualTo(n3);
        p.reclaimTo(3); // mark recorded after wiring the task that took nodes 1 and 2
        assertThat(p.used()).isEqualTo(2);
        p.reclaimTo(2); // marks never move the tail back
        assertThat(p.tail()).isEqualTo(3);
        long n5 = p.alloc(104, DepPool.NULL); // wraps onto a freed physical entry
        assertThat(p.consumerAt(n5)).isEqualTo(104);
        assertThat(p.consumerAt(n3)).isEqualTo(102);
        assertThat(p.highWater()).isEqualTo(4);
    }
}
