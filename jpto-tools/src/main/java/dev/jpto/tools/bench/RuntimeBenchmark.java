package dev.jpto.tools.bench;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.Platform;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * The {@code jpto bench runtime} comparison: per DAG shape, empty-kernel tasks through the chip runtime
 * (submit → dependency discovery → dispatch → completion → reclamation) and the same DAG with edges wired by
 * hand on a ForkJoinPool.
 *
 * <p>Fairness: both sides use the same threads. The chip runs one orchestrator (the calling thread) and
 * {@code aicpu_thread_num − 1} scheduler threads; the pool has that many workers and the calling thread builds
 * the futures. Runs are paired — each chip run is followed at once by a pool run — so a pair sees one machine
 * state; the ratio reported is the median of the per-pair ratios, next to the median of each side.
 *
 * <p>Besides wall time, each side's thread CPU time per task (ThreadMXBean: the calling thread plus that side's
 * workers, over the run) is reported: it counts spinning and hand-off work but not time spent descheduled, so it
 * is less sensitive to other load on the machine than wall time. The calling thread's CPU while it submits
 * (the orchestration, or building the futures; not the wait for the end) is shown too: the orchestrator is the
 * serial part of the runtime, and this single-thread figure is the steadiest of all.
 */
public final class RuntimeBenchmark {
    private RuntimeBenchmark() {
    }

    /** {@code threads} is {@code aicpu_thread_num}: 0 for the platform default, else ≥ 2. */
    public record Options(Platform platform, int tasks, int block, int warmups, int runs, int threads,
                          List<RuntimeWorkload.Shape> shapes, double warmupSeconds) {
        /**
         * The warm-up time per shape of {@code jpto bench runtime} (its {@code --warmup-seconds} default): on 2 cores
         * the JIT reaches its steady code for both sides only after one to two seconds of runs (ns/task still fell by
         * a third after 10 warm-up runs). The shorter constructors warm up by count alone, for tests.
         */
        public static final double DEFAULT_WARMUP_SECONDS = 3;

        public Options {
            if (!(warmupSeconds >= 0 && warmupSeconds <= 600)) {
                throw new IllegalArgumentException("warmupSeconds must be in [0, 600]: warmupSeconds=" + warmupSeconds
                        + " (try " + DEFAULT_WARMUP_SECONDS + ")");
            }
            if (shapes.isEmpty()) {
                throw new IllegalArgumentException("shapes must name at least one of "
                        + Arrays.toString(RuntimeWorkload.Shape.values()).toLowerCase(Locale.ROOT));
            }
            shapes = List.copyOf(shapes);
            if (!platform.simulated()) {
                throw new IllegalArgumentException("platform must be simulated: platform=" + platform.text()
                        + " (try " + platform.simulatedTwin().text() + ")");
            }
            if (runs < 1 || warmups < 0) {
                throw new IllegalArgumentException("runs must be >= 1 and warmups >= 0: runs=" + runs
                        + " warmups=" + warmups + " (try runs=15 warmups=10)");
            }
            if (threads != 0 && (threads < 2 || threads > 64)) {
                throw new IllegalArgumentException("threads (aicpu_thread_num) must be 0 (platform default) or 2..64:"
                        + " threads=" + threads + " (try 0)");
            }
        }

        public Options(Platform platform, int tasks, int block, int warmups, int runs, int threads) {
            this(platform, tasks, block, warmups, runs, threads, List.of(RuntimeWorkload.Shape.values()), 0);
        }

        public Options(Platform platform, int tasks, int block, int warmups, int runs) {
            this(platform, tasks, block, warmups, runs, 0);
        }

        /** Scheduler threads of the chip, and workers of the pool. */
        public int workers() {
            return config().aicpuThreads(platform) - 1;
        }

        CallConfig config() {
            return CallConfig.defaults().withAicpuThreadNum(threads);
        }
    }

    /**
     * One shape's figures, ns per task: medians of wall time and thread CPU time of each side (all its threads,
     * and the calling thread's CPU while submitting: the orchestration, or building the futures), and the
     * medians of the per-pair ratios (with the interquartile range of the wall ratio, to show the noise).
     */
    public record Row(RuntimeWorkload.Shape shape, double jptoNsPerTask, double forkJoinNsPerTask, double ratio,
                      double ratioQ1, double ratioQ3, double jptoCpuNsPerTask, double forkJoinCpuNsPerTask,
                      double cpuRatio, double jptoSubmitCpuNsPerTask, double forkJoinSubmitCpuNsPerTask) {
    }

    public static List<Row> run(Options options) {
        CallConfig config = options.config();
        List<Row> rows = new ArrayList<>();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeEnabled() && mx.isThreadCpuTimeSupported()) {
            mx.setThreadCpuTimeEnabled(true);
        }
        ConcurrentLinkedQueue<Thread> fjThreads = new ConcurrentLinkedQueue<>();
        ForkJoinPool.ForkJoinWorkerThreadFactory factory = p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            fjThreads.add(t);
            return t;
        };
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(options.platform(), 0)) {
            ForkJoinPool pool = new ForkJoinPool(options.workers(), factory, null, false);
            try {
                for (RuntimeWorkload.Shape shape : options.shapes()) {
                    RuntimeWorkload w = new RuntimeWorkload(shape, options.tasks(), options.block(), 42, arena);
                    rows.add(measure(w, chip, config, pool, fjThreads, mx, options));
                }
            } finally {
                pool.shutdown();
            }
        }
        return rows;
    }

    private static Row measure(RuntimeWorkload w, Chip chip, CallConfig config, ForkJoinPool pool,
                               ConcurrentLinkedQueue<Thread> fjThreads, ThreadMXBean mx, Options o) {
        double[] jpto = new double[o.runs()];
        double[] fj = new double[o.runs()];
        double[] jptoCpu = new double[o.runs()];
        double[] fjCpu = new double[o.runs()];
        double[] jptoSubmit = new double[o.runs()];
        double[] fjSubmit = new double[o.runs()];
        long[] submitCpu = new long[1];
        Orchestration timed = orch -> { // built once: no allocation per run
            long s0 = mx.getCurrentThreadCpuTime();
            w.orchestration().orchestrate(orch);
            submitCpu[0] = mx.getCurrentThreadCpuTime() - s0;
        };
        // Warm-up: at least `warmups` pairs and at least `warmupSeconds` of them.
        long warmUntil = System.nanoTime() + (long) (o.warmupSeconds() * 1e9);
        for (int i = 0; i < o.warmups() || System.nanoTime() < warmUntil; i++) {
            checkExecuted(w, chip.run(timed, config).tasksExecuted());
            w.runForkJoin(pool);
        }
        long[] schedulers = chip.schedulerThreadIds(); // stable from here: the config no longer changes
        for (int i = 0; i < o.runs(); i++) {
            long c0 = cpu(mx, schedulers);
            long t0 = System.nanoTime();
            long executed = chip.run(timed, config).tasksExecuted();
            long t1 = System.nanoTime();
            long c1 = cpu(mx, schedulers);
            long f0 = cpu(mx, fjThreads);
            long m0 = mx.getCurrentThreadCpuTime();
            long t2 = System.nanoTime();
            CompletableFuture<Void> all = w.startForkJoin(pool);
            long m1 = mx.getCurrentThreadCpuTime();
            all.join();
            long t3 = System.nanoTime();
            long f1 = cpu(mx, fjThreads);
            checkExecuted(w, executed);
            jpto[i] = (double) (t1 - t0) / w.tasks();
            fj[i] = (double) (t3 - t2) / w.tasks();
            jptoCpu[i] = (double) (c1 - c0) / w.tasks();
            fjCpu[i] = (double) (f1 - f0) / w.tasks();
            jptoSubmit[i] = (double) submitCpu[0] / w.tasks();
            fjSubmit[i] = (double) (m1 - m0) / w.tasks();
        }
        double[] ratios = new double[o.runs()];
        double[] cpuRatios = new double[o.runs()];
        for (int i = 0; i < o.runs(); i++) {
            ratios[i] = jpto[i] / fj[i];
            cpuRatios[i] = jptoCpu[i] / fjCpu[i];
        }
        return new Row(w.shape(), quantile(jpto, 0.5), quantile(fj, 0.5), quantile(ratios, 0.5),
                quantile(ratios, 0.25), quantile(ratios, 0.75), quantile(jptoCpu, 0.5), quantile(fjCpu, 0.5),
                quantile(cpuRatios, 0.5), quantile(jptoSubmit, 0.5), quantile(fjSubmit, 0.5));
    }

    private static void checkExecuted(RuntimeWorkload w, long executed) {
        if (executed != w.tasks()) {
            throw new IllegalStateException("the chip executed " + executed + " of " + w.tasks() + " tasks");
        }
    }

    /** CPU time of the calling thread plus {@code threads} (a thread that ended counts no more). */
    private static long cpu(ThreadMXBean mx, long[] threads) {
        long sum = mx.getCurrentThreadCpuTime();
        for (long id : threads) {
            sum += Math.max(0, mx.getThreadCpuTime(id));
        }
        return sum;
    }

    private static long cpu(ThreadMXBean mx, Iterable<Thread> threads) {
        long sum = mx.getCurrentThreadCpuTime();
        for (Thread t : threads) {
            sum += Math.max(0, mx.getThreadCpuTime(t.threadId()));
        }
        return sum;
    }

    /** Linear-interpolated quantile {@code q} in [0, 1]; 0.5 is the median. */
    static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        double pos = q * (s.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, s.length - 1);
        return s[lo] + (pos - lo) * (s[hi] - s[lo]);
    }

    /** The report printed by {@code jpto bench runtime}. */
    public static List<String> lines(Options o, List<Row> rows) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "[BENCH] runtime %s: %d empty-kernel tasks in scopes of %d, %d paired runs"
                + " after >= %d warm-ups and >= %.1f s per shape; baseline ForkJoinPool+CompletableFuture with"
                + " hand-wired edges", o.platform().text(), o.tasks(), o.block(), o.runs(), o.warmups(),
                o.warmupSeconds()));
        out.add(String.format(Locale.ROOT, "  threads: jpto 1 orchestrator + %d schedulers (aicpu_thread_num=%d);"
                + " forkjoin 1 submitter + %d workers; %d CPUs", o.workers(), o.workers() + 1, o.workers(),
                Runtime.getRuntime().availableProcessors()));
        out.add("  wall: medians of each side, ratio = median of per-pair ratios [IQR]; cpu: thread CPU ns/task of"
                + " caller + workers (caller while submitting)");
        out.add(String.format(Locale.ROOT, "  %-12s %14s %18s %8s %15s %16s %16s %9s", "shape", "jpto ns/task",
                "forkjoin ns/task", "ratio", "[IQR]", "jpto cpu", "forkjoin cpu", "cpu ratio"));
        for (Row r : rows) {
            out.add(String.format(Locale.ROOT, "  %-12s %14.1f %18.1f %7.2fx %15s %16s %16s %8.2fx",
                    r.shape().name().toLowerCase(Locale.ROOT), r.jptoNsPerTask(), r.forkJoinNsPerTask(), r.ratio(),
                    String.format(Locale.ROOT, "[%.2f-%.2f]", r.ratioQ1(), r.ratioQ3()),
                    String.format(Locale.ROOT, "%.1f (%.1f)", r.jptoCpuNsPerTask(), r.jptoSubmitCpuNsPerTask()),
                    String.format(Locale.ROOT, "%.1f (%.1f)", r.forkJoinCpuNsPerTask(), r.forkJoinSubmitCpuNsPerTask()),
                    r.cpuRatio()));
        }
        return out;
    }
}
