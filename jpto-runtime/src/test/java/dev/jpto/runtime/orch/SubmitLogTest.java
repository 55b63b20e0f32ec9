package dev.jpto.runtime.orch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CoreType;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The device estimate's producer record: the writes a read overlaps, and a covering write replacing older ones. */
class SubmitLogTest {
    private static List<Long> preds(SubmitLog log, int i) {
        List<Long> p = new ArrayList<>();
        for (int k = 0; k < log.predCount(i); k++) {
            p.add(log.pred(i, k));
        }
        return p;
    }

    @Test
    void aChainOfUpdatesOfOneTensorHasOneProducerPerTask() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor cell = Tensor.allocate(arena, DType.INT8, 64);
            SubmitLog log = new SubmitLog();
            for (long t = 0; t < 100; t++) {
                log.begin(t, "inc", CoreType.AIV, 1);
                log.read(cell);
                log.write(t, cell);
            }
            assertThat(preds(log, 0)).isEmpty();
            for (int i = 1; i < 100; i++) {
                assertThat(preds(log, i)).as("task %d", i).containsExactly((long) i - 1);
            }
        }
    }

    @Test
    void aReadOfOneRowFindsOnlyThatRowsWriterAndAFullWriteCoversBoth() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 2, 16);
            Tensor row0 = x.slice(new long[] {0, 0}, new long[] {1, 16});
            Tensor row1 = x.slice(new long[] {1, 0}, new long[] {1, 16});
            SubmitLog log = new SubmitLog();
            log.begin(0, "w0", CoreType.AIV, 1);
            log.write(0, row0);
            log.begin(1, "w1", CoreType.AIV, 1);
            log.write(1, row1);
            log.begin(2, "r0", CoreType.AIV, 1);
            log.read(row0);
            log.begin(3, "all", CoreType.AIV, 1);
            log.read(x);
            log.write(3, x);
            log.begin(4, "r1", CoreType.AIV, 1);
            log.read(row1);
            assertThat(preds(log, 2)).containsExactly(0L);
            assertThat(preds(log, 3)).containsExactly(0L, 1L);
            assertThat(preds(log, 4)).containsExactly(3L);
        }
    }

    /**
     * Past the indexed threshold: 200 tasks each write one 8-element chunk of a column-strided view (so byte ranges
     * interleave), then reads of single rows and a covering write; the producers must be what a brute-force scan of
     * every write with the overlap rule finds: the writers of the chunks the read touches.
     */
    @Test
    void manyDisjointWritesOfOneBufferFindTheSameProducersAsAScan() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 64, 200);
            SubmitLog log = new SubmitLog();
            int tasks = 0;
            for (int col = 0; col < 25; col++) {
                for (int band = 0; band < 8; band++) {
                    log.begin(tasks, "w", CoreType.AIV, 1);
                    log.write(tasks, x.slice(new long[] {band * 8L, col * 8L}, new long[] {8, 8}));
                    tasks++;
                }
            }
            for (int row = 0; row < 64; row += 9) {
                log.begin(tasks, "r", CoreType.AIV, 1);
                log.read(x.slice(new long[] {row, 0}, new long[] {1, 200}));
                List<Long> expected = new ArrayList<>();
                for (int col = 0; col < 25; col++) {
                    expected.add((long) col * 8 + row / 8);
                }
                assertThat(preds(log, tasks)).as("row %d", row).containsExactlyInAnyOrderElementsOf(expected);
                tasks++;
            }
            log.begin(tasks, "all", CoreType.AIV, 1);
            log.read(x); // an update (INOUT): it waits for every earlier writer, so its write covers them
            log.write(tasks, x);
            int all = tasks++;
            log.begin(tasks, "r", CoreType.AIV, 1);
            log.read(x.slice(new long[] {5, 5}, new long[] {1, 1}));
            assertThat(preds(log, tasks)).containsExactly((long) all);
        }
    }

    /**
     * Two tasks writing the same view without waiting for each other (OUTPUT_EXISTING, as dsv4's gather_kv and
     * gather_kv_cmp fill one staging buffer): the later write does not make the earlier one unreadable, so a reader
     * waits for both, as the runtime's TensorMap (which keeps both entries) makes it.
     */
    @Test
    void aWriteThatDoesNotWaitForAnEarlierWriterOfTheSameViewLeavesBothToTheReader() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor staging = Tensor.allocate(arena, DType.BF16, 8, 64);
            Tensor left = staging.slice(new long[] {0, 0}, new long[] {8, 32});
            SubmitLog log = new SubmitLog();
            log.begin(0, "fill_window", CoreType.AIV, 1);
            log.write(0, staging);
            log.begin(1, "fill_compressed", CoreType.AIV, 1);
            log.write(1, staging);
            log.begin(2, "attend", CoreType.AIC, 1);
            log.read(left);
            assertThat(preds(log, 2)).containsExactlyInAnyOrder(0L, 1L);
            // an explicit dependency on the earlier writer lets the later write cover it
            log.begin(3, "refill", CoreType.AIV, 1);
            log.explicit(1);
            log.write(3, staging);
            log.begin(4, "attend_again", CoreType.AIC, 1);
            log.read(left);
            assertThat(preds(log, 4)).containsExactlyInAnyOrder(0L, 3L);
        }
    }
}
