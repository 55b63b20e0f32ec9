package dev.jpto.bench;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.gen.Generators;
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.ProgramSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;

/**
 * Input generation of one program preset (default {@code dsv4.prefill_attention_swa pro}), tensor by tensor, in
 * one run: the fill as the runner does it (common pool), the same fill confined to one thread, and for plain
 * distributions the sequential reference ({@link Generators#fillSequential}). Prints MB/s and same-run ratios, and
 * checks that every variant produced the same bytes. Not JMH: one big fill per variant, best of three after one
 * warm-up fill. Times are process CPU seconds (MB per CPU second, so a loaded machine does not skew them; the pool's
 * wall-clock speed-up is at most its thread count times that), with the mean wall time of all fills at the end.
 *
 * <pre>java --add-modules jdk.incubator.vector -cp "target/classes:target/lib/*" dev.jpto.bench.InputGenBench \
 *     [program] [preset]</pre>
 */
public final class InputGenBench {
    private static final int ROUNDS = 3;
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean();
    private static final double[] WALL = new double[1];

    private InputGenBench() {
    }

    public static void main(String[] args) throws Exception {
        String program = args.length > 0 ? args[0] : "dsv4.prefill_attention_swa";
        String preset = args.length > 1 ? args[1] : "pro";
        ProgramSpec spec = Programs.registry().get(program).spec(preset);
        ForkJoinPool one = new ForkJoinPool(1);
        double[] total = new double[3];
        long bytes = 0;
        long refBytes = 0;
        System.out.printf(Locale.ROOT, "%s %s, common pool parallelism %d%n", program, preset,
                ForkJoinPool.getCommonPoolParallelism());
        System.out.printf(Locale.ROOT, "%-28s %10s %12s %12s %12s%n", "tensor", "MiB", "pool MB/s", "1-thr MB/s",
                "seq-ref MB/s");
        for (InputSpec in : spec.inputs()) {
            try (Arena arena = Arena.ofShared()) {
                Tensor a = Tensor.allocate(arena, in.dtype(), in.shape());
                Tensor b = Tensor.allocate(arena, in.dtype(), in.shape());
                in.fill().fill(a, in.name(), 0); // warm-up (and the bytes the others must equal)
                double pool = seconds(() -> in.fill().fill(b, in.name(), 0));
                same(a, b, in.name() + " (pool)");
                b.buffer().fill((byte) 0);
                double single = seconds(() -> one.submit(() -> in.fill().fill(b, in.name(), 0)).join());
                same(a, b, in.name() + " (one thread)");
                double ref = Double.NaN;
                if (in.fill() instanceof InputFill.FromInit f) {
                    b.buffer().fill((byte) 0);
                    ref = seconds(() -> Generators.fillSequential(b, in.name(), f.init(), 0));
                    same(a, b, in.name() + " (sequential reference)");
                    total[2] += ref;
                    refBytes += b.byteSize();
                }
                total[0] += pool;
                total[1] += single;
                bytes += a.byteSize();
                System.out.printf(Locale.ROOT, "%-28s %10.2f %12.0f %12.0f %12s%n", in.name(),
                        a.byteSize() / 1048576.0, a.byteSize() / 1e6 / pool, a.byteSize() / 1e6 / single,
                        Double.isNaN(ref) ? "-" : String.format(Locale.ROOT, "%.0f", b.byteSize() / 1e6 / ref));
            }
        }
        one.shutdown();
        System.out.printf(Locale.ROOT, "(MB/s are MB per CPU second; mean wall time of all timed fills %.3f s)%n",
                WALL[0]);
        System.out.printf(Locale.ROOT, "all %d inputs, %.1f MiB: pool %.3f s (%.0f MB/s), one thread %.3f s"
                        + " (%.0f MB/s), pool speed-up over one thread %.2fx%n", spec.inputs().size(),
                bytes / 1048576.0, total[0], bytes / 1e6 / total[0], total[1], bytes / 1e6 / total[1],
                total[1] / total[0]);
        if (refBytes > 0) {
            System.out.printf(Locale.ROOT, "plain distributions (%.1f MiB): sequential reference %.0f MB/s%n",
                    refBytes / 1048576.0, refBytes / 1e6 / total[2]);
        }
    }

    /** The best of {@value #ROUNDS} runs, in CPU seconds of the whole process (see the class comment). */
    private static double seconds(Runnable r) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < ROUNDS; i++) {
            long c0 = OS.getProcessCpuTime();
            long t0 = System.nanoTime();
            r.run();
            WALL[0] += (System.nanoTime() - t0) / 1e9 / ROUNDS;
            best = Math.min(best, (OS.getProcessCpuTime() - c0) / 1e9);
        }
        return best;
    }

    private static void same(Tensor expected, Tensor actual, String what) {
        MemorySegment e = expected.buffer().asSlice(0, expected.byteSize());
        MemorySegment a = actual.buffer().asSlice(0, actual.byteSize());
        if (e.mismatch(a) != -1) {
            throw new AssertionError(what + ": bytes differ from the runner's fill at byte " + e.mismatch(a));
        }
    }
}
