package dev.jpto.lib.bench;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.Platform;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;

/**
 * The {@code jpto bench runtime} comparison: per DAG shape, empty-kernel tasks through the chip runtime
 * (submit → dependency discovery → dispatch → completion → reclamation) and the same DAG on a ForkJoinPool of
 * as many threads as the chip has schedulers, with edges wired by hand — alternating, in one process, so both
 * see the same machine load. Reports the median ns/task of each and their ratio.
 */
public final class RuntimeBenchmark {
    private RuntimeBenchmark() {
    }

    public record Options(Platform platform, int tasks, int block, int warmups, int runs) {
        public Options {
            if (!platform.simulated()) {
                throw new IllegalArgumentException("platform must be simulated: platform=" + platform.text()
                        + " (try " + platform.simulatedTwin().text() + ")");
            }
            if (runs < 1 || warmups < 0) {
                throw new IllegalArgumentException("runs must be >= 1 and warmups >= 0: runs=" + runs
                        + " warmups=" + warmups + " (try runs=15 warmups=10)");
            }
        }
    }

    /** One shape's medians in ns per task. */
    public record Row(RuntimeWorkload.Shape shape, double jptoNsPerTask, double forkJoinNsPerTask) {
        public double ratio() {
            return jptoNsPerTask / forkJoinNsPerTask;
        }
    }

    public static List<Row> run(Options options) {
        CallConfig config = CallConfig.defaults();
        int schedulers = config.aicpuThreads(options.platform()) - 1;
        List<Row> rows = new ArrayList<>();
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(options.platform(), 0)) {
            ForkJoinPool pool = new ForkJoinPool(schedulers);
            try {
                for (RuntimeWorkload.Shape shape : RuntimeWorkload.Shape.values()) {
                    RuntimeWorkload w = new RuntimeWorkload(shape, options.tasks(), options.block(), 42, arena);
                    rows.add(measure(w, chip, config, pool, options));
                }
            } finally {
                pool.shutdown();
            }
        }
        return rows;
    }

    private static Row measure(RuntimeWorkload w, Chip chip, CallConfig config, ForkJoinPool pool, Options o) {
        double[] jpto = new double[o.runs()];
        double[] fj = new double[o.runs()];
        for (int i = -o.warmups(); i < o.runs(); i++) {
            long t0 = System.nanoTime();
            long executed = chip.run(w.orchestration(), config).tasksExecuted();
            long t1 = System.nanoTime();
            w.runForkJoin(pool);
            long t2 = System.nanoTime();
            if (executed != w.tasks()) {
                throw new IllegalStateException("the chip executed " + executed + " of " + w.tasks() + " tasks");
            }
            if (i >= 0) {
                jpto[i] = (double) (t1 - t0) / w.tasks();
                fj[i] = (double) (t2 - t1) / w.tasks();
            }
        }
        return new Row(w.shape(), median(jpto), median(fj));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The report printed by {@code jpto bench runtime}. */
    public static List<String> lines(Options o, List<Row> rows) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "[BENCH] runtime %s: %d empty-kernel tasks in scopes of %d, median of %d"
                + " runs after %d warm-ups; baseline ForkJoinPool+CompletableFuture with hand-wired edges",
                o.platform().text(), o.tasks(), o.block(), o.runs(), o.warmups()));
        out.add(String.format(Locale.ROOT, "  %-12s %14s %18s %8s", "shape", "jpto ns/task", "forkjoin ns/task",
                "ratio"));
        for (Row r : rows) {
            out.add(String.format(Locale.ROOT, "  %-12s %14.1f %18.1f %7.2fx", r.shape().name().toLowerCase(Locale.ROOT),
                    r.jptoNsPerTask(), r.forkJoinNsPerTask(), r.ratio()));
        }
        return out;
    }
}
