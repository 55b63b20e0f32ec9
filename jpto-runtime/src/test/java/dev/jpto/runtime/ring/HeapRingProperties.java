package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random allocate / retire-in-order sequences: live buffers never overlap, never cross the end, and the
 * ring never refuses a request that fits in a free arc by the spec's rules; used() is the sum of live
 * sizes plus the wrap gap.
 */
class HeapRingProperties {

    private record Block(long task, long start, long size) {}

    @Property(tries = 300, seed = "4242")
    void liveBuffersNeverOverlapOrStraddle(@ForAll long seed) {
        Random r = new Random(seed);
        long size = 1024L * (1 + r.nextInt(64));
        HeapRing h = new HeapRing(size);
        Deque<Block> live = new ArrayDeque<>();
        long task = 0;
        for (int step = 0; step < 400; step++) {
            if (!live.isEmpty() && r.nextInt(3) == 0) {
                int n = 1 + r.nextInt(live.size());
                Block newest = null;
                for (int i = 0; i < n; i++) {
                    newest = live.pollFirst();
                }
                h.reclaim(newest.task(), newest.start() + newest.size());
                continue;
            }
            long n = 64L * r.nextInt((int) (size / 64) / 2 + 1);
            long top = h.top(), tail = h.tail();
            boolean empty = top == tail;
            long at = h.tryBump(n, task);
            // The spec's admission rule, written independently of the implementation.
            boolean fits = n == 0 || (top >= tail ? (size - top >= n || tail > n || (empty && n <= size)) : tail - top > n);
            assertThat(at != HeapRing.FULL).as("n=%d top=%d tail=%d size=%d", n, top, tail, size).isEqualTo(fits);
            if (at == HeapRing.FULL) {
                continue;
            }
            assertThat(at).isBetween(0L, size - n);
            if (n > 0) {
                for (Block b : live) {
                    boolean disjoint = at + n <= b.start() || b.start() + b.size() <= at;
                    assertThat(disjoint).as("new [%d,%d) vs live [%d,%d)", at, at + n, b.start(), b.start() + b.size())
                            .isTrue();
                }
            }
            live.addLast(new Block(task++, at, n));
            long liveBytes = live.stream().mapToLong(Block::size).sum();
            assertThat(h.used()).isGreaterThanOrEqualTo(liveBytes);
            assertThat(h.used()).isLessThanOrEqualTo(size);
        }
    }
}
