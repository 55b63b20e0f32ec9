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
}
