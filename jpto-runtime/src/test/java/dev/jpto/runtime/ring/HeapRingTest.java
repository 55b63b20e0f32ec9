package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeapRingTest {

    @Test
    void bumpsContiguouslyAndReportsUse() {
        HeapRing h = new HeapRing(4096);
        assertThat(h.tryBump(1024, 0)).isEqualTo(0);
        assertThat(h.tryBump(2048, 1)).isEqualTo(1024);
        assertThat(h.used()).isEqualTo(3072);
        assertThat(h.available()).isEqualTo(1024);
        assertThat(h.tryBump(0, 2)).as("zero bytes returns top without moving").isEqualTo(3072);
        assertThat(h.used()).isEqualTo(3072);
    }

    @Test
    void fillsExactlyToTheEndWhenTailIsAtZero() {
        HeapRing h = new HeapRing(4096);
        assertThat(h.tryBump(4096, 0)).isEqualTo(0);
        assertThat(h.used()).isEqualTo(4096);
        assertThat(h.available()).isZero();
        assertThat(h.tryBump(64, 1)).isEqualTo(HeapRing.FULL);
    }

    @Test
    void wrapsToZeroOnlyWhenStrictlyBelowTailAndNeverStraddles() {
        HeapRing h = new HeapRing(4096);
        h.tryBump(1024, 0); // [0,1024)
        h.tryBump(2048, 1); // [1024,3072)
        h.reclaim(0, 1024); // task 0 retired: tail = 1024
        // 1024 bytes remain at the end: a 1024 request fits there exactly.
        assertThat(h.tryBump(1024, 2)).isEqualTo(3072);
        assertThat(h.top()).isEqualTo(4096);
        // Nothing fits at the end; wrapping needs tail > n strictly: tail = 1024, so 1024 does not wrap...
        assertThat(h.tryBump(1024, 3)).isEqualTo(HeapRing.FULL);
        // ...but 960 does, placed at 0 (not straddling the end).
        assertThat(h.tryBump(960, 3)).isEqualTo(0);
        assertThat(h.top()).isEqualTo(960);
        assertThat(h.used()).isEqualTo(960 + 4096 - 1024);
        // Now top < tail: allocate iff tail - top > n (strict): 1024 - 960 = 64 → 64 does not fit.
        assertThat(h.tryBump(64, 4)).isEqualTo(HeapRing.FULL);
    }

    @Test
    void aBufferThatDoesNotFitBeforeTheEndSkipsTheRest() {
        HeapRing h = new HeapRing(4096);
        h.tryBump(3072, 0);
        h.reclaim(0, 3072); // empty at top = tail = 3072
        // 2048 does not fit in the 1024 left at the end; tail (3072) > 2048, so wrap.
        assertThat(h.tryBump(2048, 1)).isEqualTo(0);
        assertThat(h.allocatedTotal()).as("skipped end bytes count as allocated (unrolled)").isEqualTo(3072 + 1024 + 2048);
        // used = (top + size - tail) mod size counts the skipped end [3072, 4096) until the tail passes it.
        assertThat(h.used()).isEqualTo(3072);
        assertThat(h.reclaimedTotal()).isEqualTo(3072);
    }

    @Test
    void rebasesAnEmptyRingAndIgnoresOlderReclaimMarks() {
        HeapRing h = new HeapRing(4096);
        h.tryBump(2048, 0);
        h.tryBump(1024, 1);
        h.reclaim(1, 3072); // empty, top = tail = 3072
        // 3072 fits neither at the end (1024) nor strictly below tail (3072 > 3072 is false): rebase.
        assertThat(h.tryBump(3072, 7)).isEqualTo(0);
        assertThat(h.tail()).isZero();
        assertThat(h.top()).isEqualTo(3072);
        // A reclaim mark of a task older than the rebase anchor (7) is ignored...
        h.reclaim(5, 1024);
        assertThat(h.tail()).isZero();
        // ...one at or after it applies.
        h.reclaim(7, 3072);
        assertThat(h.tail()).isEqualTo(3072);
        assertThat(h.used()).isZero();
    }

    @Test
    void reclamationIsInTaskOrderThroughThePackedEnd() {
        HeapRing h = new HeapRing(8192);
        long a = h.tryBump(1024, 0), b = h.tryBump(2048, 1), c = h.tryBump(1024, 2);
        assertThat(new long[] {a, b, c}).containsExactly(0, 1024, 3072);
        h.reclaim(1, 3072); // tasks 0 and 1 retired together: tail jumps to task 1's end
        assertThat(h.used()).isEqualTo(1024);
        assertThat(h.highWater()).isEqualTo(4096);
    }

    @Test
    void rejectsASizeBelowTheMinimum() {
        assertThatThrownBy(() -> new HeapRing(1000)).hasMessage("heap ring size must be at least 1024 bytes: 1000");
    }
}
