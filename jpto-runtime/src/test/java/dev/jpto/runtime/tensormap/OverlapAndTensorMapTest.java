package dev.jpto.runtime.tensormap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OverlapAndTensorMapTest {
    private final Arena arena = Arena.ofConfined();
    private final Tensor buf = Tensor.allocate(arena, DType.FP32, 8, 8);

    @AfterEach
    void close() {
        arena.close();
    }

    private Tensor box(long r, long c, long h, long w) {
        return buf.slice(new long[] {r, c}, new long[] {h, w});
    }

    private static int overlap(Tensor a, Tensor b) {
        long storage = a.buffer().byteSize() / a.dtype().byteSize();
        return Overlap.check(a.rank(), storage, a.offset(), a.shape(), a.strides(), b.offset(), b.shape(),
                b.strides());
    }

    /** Brute-force reference: do the two views share an element? does a contain b? */
    private static int reference(Tensor a, Tensor b) {
        java.util.Set<Long> ea = new java.util.HashSet<>(), eb = new java.util.HashSet<>();
        for (long i = 0; i < a.numel(); i++) ea.add(a.byteOffsetOfFlat(i));
        for (long i = 0; i < b.numel(); i++) eb.add(b.byteOffsetOfFlat(i));
        if (java.util.Collections.disjoint(ea, eb)) return Overlap.NO_OVERLAP;
        return ea.containsAll(eb) ? Overlap.COVERED : Overlap.OTHER;
    }

    /** Boxes of the 8×8 buffer at rows 0, 3, 6 and every {@code cStep} columns; heights from h0, widths from w0. */
    private List<Tensor> boxes(int cStep, int h0, int hStep, int w0, int wStep) {
        List<Tensor> views = new ArrayList<>();
        for (int r = 0; r < 8; r += 3) {
            for (int c = 0; c < 8; c += cStep) {
                for (int h = h0; r + h <= 8; h += hStep) {
                    for (int w = w0; c + w <= 8; w += wStep) {
                        views.add(box(r, c, h, w));
                    }
                }
            }
        }
        return views;
    }

    @Test
    void boxesAgreeWithBruteForceOnEveryPairOfSmallSlices() {
        List<Tensor> views = boxes(3, 1, 2, 1, 3);
        for (Tensor a : views) {
            for (Tensor b : views) {
                assertThat(overlap(a, b)).as("%s@%d vs %s@%d", a, a.offset(), b, b.offset()).isEqualTo(reference(a, b));
            }
        }
    }

    /**
     * The lookup's own verdict (edge or not; an INOUT removing a covered entry) against the brute-force reference,
     * for every pair of views including each view against itself (the lookup's same-view shortcut) and empty views.
     */
    @Test
    void lookupAgreesWithBruteForceOnEveryPairIncludingIdenticalAndEmptyViews() {
        List<Tensor> views = boxes(4, 0, 3, 4, 8); // width 4 only; height 0 gives the empty views
        for (Tensor writer : views) {
            for (Tensor reader : views) {
                for (boolean inout : new boolean[] {false, true}) {
                    TensorMap m = new TensorMap(new int[] {16, 16, 16, 16});
                    m.insert(writer, 3);
                    List<Long> found = new ArrayList<>();
                    m.lookup(reader, inout, found::add);
                    int expected = reference(reader, writer);
                    String what = writer + "@" + writer.offset() + " then " + (inout ? "inout " : "input ") + reader
                            + "@" + reader.offset();
                    assertThat(found).as(what).hasSize(expected == Overlap.NO_OVERLAP ? 0 : 1);
                    assertThat(m.used()).as(what).isEqualTo(inout && expected == Overlap.COVERED ? 0 : 1);
                }
            }
        }
    }

    @Test
    void columnsWithOverlappingLinearRangesButDisjointBoxesDoNotOverlap() {
        Tensor left = box(0, 0, 8, 2), right = box(0, 4, 8, 2);
        assertThat(overlap(left, right)).isEqualTo(Overlap.NO_OVERLAP);
    }

    @Test
    void differentStridesAreConservativelyOther() {
        Tensor flat = buf.reshape(64).slice(new long[] {0}, new long[] {16});
        Tensor rows = box(0, 0, 2, 8);
        assertThat(Overlap.check(1, 64, flat.offset(), flat.shape(), flat.strides(), 0, new long[] {16},
                new long[] {1})).isEqualTo(Overlap.COVERED);
        assertThat(rows.rank()).isEqualTo(2);
    }

    @Test
    void lookupFindsValidOverlappingWritersAndInoutCoveredReplacesThem() {
        TensorMap m = new TensorMap(new int[] {16, 16, 16, 16});
        List<Long> found = new ArrayList<>();
        m.insert(box(0, 0, 4, 8), 1);                 // ring 0, task 1
        m.insert(box(4, 0, 4, 8), 2);                 // ring 0, task 2
        m.insert(box(0, 0, 8, 8), (1L << 32) | 5);    // ring 1, task 5
        assertThat(m.used()).isEqualTo(3);
        m.lookup(box(3, 0, 2, 2), false, found::add);
        assertThat(found).containsExactlyInAnyOrder(1L, 2L, (1L << 32) | 5);
        found.clear();
        // INOUT over rows 0..3 covers task 1's entry (removed) but only partly task 5's (kept).
        m.lookup(box(0, 0, 4, 8), true, found::add);
        assertThat(found).containsExactlyInAnyOrder(1L, (1L << 32) | 5);
        assertThat(m.used()).isEqualTo(2);
        // Ring 1's tasks below 6 retire: task 5's entry becomes stale and is skipped, then cleaned up.
        m.setLastAlive(1, 6);
        found.clear();
        m.lookup(box(0, 0, 8, 8), false, found::add);
        assertThat(found).containsExactly(2L);
        assertThat(m.cleanupRetired(1, 6)).isEqualTo(1);
        assertThat(m.used()).isEqualTo(1);
        assertThat(m.highWater()).isEqualTo(3);
    }

    /**
     * A task's INOUT over exactly a writer's view takes that entry over in place: the same answers as a remove
     * followed by an insert (producer reported, the task now the writer, one entry in use), and the entry now lives
     * and dies with the new task. A task never finds its own entries; a covering but different view is not taken
     * over (it is removed, and the caller inserts its own).
     */
    @Test
    void inoutOfTheSameViewTakesTheEntryOverInPlace() {
        TensorMap m = new TensorMap(new int[] {16, 16, 16, 16});
        List<Long> found = new ArrayList<>();
        m.insert(box(0, 0, 4, 8), 1);
        m.insert(box(4, 0, 4, 8), 2);
        assertThat(m.lookup(box(0, 0, 4, 8), true, 3, found::add)).as("taken over by task 3").isTrue();
        assertThat(found).containsExactly(1L);
        assertThat(m.used()).isEqualTo(2);
        found.clear();
        assertThat(m.lookup(box(0, 0, 4, 8), false, 3, found::add)).isFalse();
        assertThat(found).as("task 3 does not find its own entry").isEmpty();
        m.lookup(box(0, 0, 8, 8), false, 4, found::add);
        assertThat(found).containsExactlyInAnyOrder(3L, 2L);

        assertThat(m.cleanupRetired(0, 2)).as("task 1 retires: the entry is task 3's now").isZero();
        found.clear();
        m.lookup(box(0, 0, 4, 8), false, 4, found::add);
        assertThat(found).containsExactly(3L);
        assertThat(m.cleanupRetired(0, 4)).as("tasks 2 and 3 retire with their entries").isEqualTo(2);
        assertThat(m.used()).isZero();

        m.insert(box(0, 0, 2, 8), 5);
        found.clear();
        assertThat(m.lookup(box(0, 0, 4, 8), true, 6, found::add)).as("covers task 5's view, not the same").isFalse();
        assertThat(found).containsExactly(5L);
        assertThat(m.used()).isZero();
        m.insert(box(0, 0, 2, 8), 7);
        assertThat(m.lookup(box(0, 0, 2, 8), true, TensorMap.NO_TASK, found::add)).as("no task: removed").isFalse();
        assertThat(m.used()).isZero();
    }

    @Test
    void cleanupIsDueEveryIntervalOrBeforeReusingTheOldestSlot() {
        TensorMap m = new TensorMap(new int[] {16, 16, 16, 16});
        assertThat(m.cleanupDue(0, 0, 0)).isFalse();
        assertThat(m.cleanupDue(0, 3, 5)).isFalse();
        assertThat(m.cleanupDue(0, 3, 0)).as("new task reuses slot 0, the oldest uncleaned").isTrue();
        assertThat(m.cleanupDue(0, TensorMap.CLEANUP_INTERVAL, -1)).isTrue();
    }

    /** The high-water mark is the peak of entries in use: reusing freed entries does not raise it, a new one does. */
    @Test
    void highWaterIsThePeakOfEntriesInUse() {
        TensorMap m = new TensorMap(new int[] {16, 16, 16, 16});
        m.insert(box(0, 0, 2, 8), 1);
        m.insert(box(2, 0, 2, 8), 2);
        m.insert(box(4, 0, 2, 8), 3);
        m.lookup(box(0, 0, 4, 8), true, found -> { }); // covers tasks 1 and 2: both entries freed
        assertThat(m.used()).isEqualTo(1);
        m.insert(box(0, 0, 2, 8), 4);
        m.insert(box(2, 0, 2, 8), 5);
        assertThat(m.used()).isEqualTo(3);
        assertThat(m.highWater()).isEqualTo(3);
        m.insert(box(6, 0, 2, 8), 6);
        assertThat(m.highWater()).isEqualTo(4);
        m.reset();
        assertThat(m.highWater()).isZero();
    }

    @Test
    void poolHasTheSpecSize() {
        TensorMap m = new TensorMap(new int[] {4, 4, 4, 4});
        assertThat(m.capacity()).isEqualTo(65536);
        assertThat(TensorMap.NUM_BUCKETS).isEqualTo(4096);
        assertThat(m.free()).isEqualTo(65536);
    }
}
