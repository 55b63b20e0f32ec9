package dev.jpto.runtime;

import dev.jpto.runtime.chip.Chip;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
@SuppressWarnings("try") // scopes opened for their ring
class ConcurrencyAndMemoryTest {

    /** A prefix-sum program: row i of out = sum of rows 0..i of in, through a chain of INOUT tasks. */
    private static Orchestration prefixSums(Tensor in, Tensor out, int rows) {
        return orch -> {
            for (int i = 0; i < rows; i++) {
                final int row = i;
                try (Scope s = orch.scope()) {
                    long t = orch.submit("load", CoreType.AIV, ctx -> {
                        Tensor src = ctx.tensor(0), dst = ctx.tensor(1);
                        for (long k = 0; k < src.numel(); k++) dst.setDouble(k, src.getDouble(k));
                    }, Arg.input(in.slice(new long[] {row, 0}, new long[] {1, 16})), Arg.output(DType.FP32, 1, 16));
                    orch.submit("accumulate", CoreType.AIC, ctx -> {
                        Tensor x = ctx.tensor(0), acc = ctx.tensor(1), dst = ctx.tensor(2);
                        for (long k = 0; k < x.numel(); k++) {
                            acc.setDouble(k, acc.getDouble(k) + x.getDouble(k));
                            dst.setDouble(k, acc.getDouble(k));
                        }
                    }, Arg.input(orch.output(t, 1)), Arg.inout(out.slice(new long[] {rows, 0}, new long[] {1, 16})),
                            Arg.outputExisting(out.slice(new long[] {row, 0}, new long[] {1, 16})));
                }
            }
        };
    }

    @Test
    void twoChipsRunDifferentProgramsConcurrently() throws Exception {
        try (Arena arena = Arena.ofShared(); Chip a = Chip.open(Platform.A2A3SIM, 0); Chip b = Chip.open(Platform.A5SIM, 1)) {
            int rows = 300;
            Tensor in = Tensor.allocate(arena, DType.FP32, rows, 16);
            for (long k = 0; k < in.numel(); k++) in.setDouble(k, k % 7);
            Tensor outA = Tensor.allocate(arena, DType.FP32, rows + 1, 16);
            Tensor counter = Tensor.allocate(arena, DType.INT32, 1);
            CallConfig smallRings = CallConfig.defaults().withAicpuThreadNum(3)
                    .withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(16).withRingHeap(0, 4096, 0, 0));
            CompletableFuture<RunReport> fa = CompletableFuture.supplyAsync(() -> a.run(prefixSums(in, outA, rows), smallRings));
            CompletableFuture<RunReport> fb = CompletableFuture.supplyAsync(() -> b.run(orch -> {
                for (int i = 0; i < 2000; i++) {
                    orch.submit("count", i % 2 == 0 ? CoreType.AIC : CoreType.AIV,
                            ctx -> ctx.tensor(0).setDouble(0, ctx.tensor(0).getDouble(0) + 1), Arg.inout(counter));
                }
            }, CallConfig.defaults()));
            RunReport ra = fa.get();
            RunReport rb = fb.get();
            for (int col = 0; col < 16; col++) {
                double sum = 0;
                for (int row = 0; row < rows; row++) {
                    sum += (row * 16 + col) % 7;
                    assertThat(outA.getDouble(row * 16L + col)).isEqualTo(sum);
                }
            }
            assertThat(counter.getDouble(0)).isEqualTo(2000);
            assertThat(ra.tasksExecuted()).isEqualTo(2L * rows);
            assertThat(rb.tasksExecuted()).isEqualTo(2000);
            // Small rings were really wrapped: ring 1 saw more allocations than its capacity.
            assertThat(ra.ring(1).heapBytes()).isEqualTo(4096);
            assertThat(ra.ring(1).heapMax()).isLessThanOrEqualTo(4096).isGreaterThanOrEqualTo(1024);
            assertThat(ra.ring(1).taskWindowMax()).isLessThanOrEqualTo(15);
            assertThat(rb.aicpuThreadNum()).isEqualTo(Platform.A5SIM.hostAicpuThreadNum(1));
        }
    }

    private static long rssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }

    @Test
    void fourGibibyteRingsCostOnlyTouchedPages() throws Exception {
        if (!Files.exists(Path.of("/proc/self/status"))) {
            return; // Linux-only measurement
        }
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A5SIM, 0)) {
            Tensor out = Tensor.allocate(arena, DType.FP32, 301, 16);
            Tensor in = Tensor.allocate(arena, DType.FP32, 300, 16);
            chip.run(prefixSums(in, out, 10), CallConfig.defaults()); // warm up classes and default rings
            System.gc();
            long before = rssKiB();
            RunReport rep = chip.run(prefixSums(in, out, 300),
                    CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingHeap(1L << 30)));
            long after = rssKiB();
            long growthMiB = (after - before) / 1024;
            System.out.printf("RSS with 4 x 1GiB heap rings: before %d KiB, after %d KiB, growth %d MiB "
                    + "(heap high-water per ring %d/%d/%d/%d bytes)%n", before, after, growthMiB,
                    rep.ring(0).heapMax(), rep.ring(1).heapMax(), rep.ring(2).heapMax(), rep.ring(3).heapMax());
            assertThat(rep.ring(1).heapBytes()).isEqualTo(1L << 30);
            assertThat(growthMiB).isLessThan(1024);
        }
    }
}
