package dev.jpto.sweep;

import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.map.IMap;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code jpto sweep}: runs a sweep file's cases on one embedded Hazelcast member, records each result in an
 * {@code IMap} and in {@code DIR/results.jsonl} as it arrives, skips cases already in that file (resume), and ends
 * with summary lines and {@code DIR/summary.md}.
 *
 * @param out         progress and summary lines
 * @param maxParallel cases run at once on the member
 * @param caseTimeout the longest wait for the next result before the sweep gives up (exit 3)
 * @param env         the environment ($JPTO_CACHE_DIR)
 */
public record Sweep(PrintStream out, int maxParallel, Duration caseTimeout, Map<String, String> env) {
    static final String RESULTS_MAP = "jpto-results";

    public Sweep {
        if (maxParallel < 1) {
            throw new IllegalArgumentException("--max-parallel must be >= 1: --max-parallel " + maxParallel
                    + " (try " + defaultParallel() + ")");
        }
    }

    /** Half the processors (a case's simulated chip runs threads of its own), at least one. */
    public static int defaultParallel() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /**
     * Runs the sweep in {@code file}, results under {@code dir}.
     *
     * @return 0 when every case came out as expected, 1 when any did not, 3 when a result never arrived
     * @throws SweepFileException for a sweep file (or results file) that cannot be used (exit 2)
     * @throws InterruptedException when the calling thread is interrupted (the member is shut down first)
     */
    public int run(Path file, Path dir) throws InterruptedException {
        ProgramRefs refs = new ProgramRefs(env);
        List<SweepCase> cases = SweepFile.read(file, refs);
        dev.jpto.lib.runner.OutputDir.requireWritable("--out", dir);
        try {
            java.nio.file.Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("--out " + dir + ": cannot create the directory", e);
        }
        ResultsFile results = ResultsFile.open(dir);
        List<SweepCase> todo = cases.stream().filter(c -> !results.has(c.id())).toList();
        out.println("[SWEEP] " + file + ": " + cases.size() + " case(s), " + (cases.size() - todo.size())
                + " already in " + dir.resolve(ResultsFile.NAME) + ", " + todo.size() + " to run, " + maxParallel
                + " at a time");
        if (!todo.isEmpty()) {
            HazelcastInstance member = EmbeddedMember.start(maxParallel,
                    name -> new CaseRunner(refs, name, CaseRunner.share(maxParallel)));
            try {
                if (!runAll(member, todo, results)) {
                    SummaryReport.write(dir, cases, results.all(), out);
                    return 3;
                }
            } finally {
                member.shutdown();
            }
        }
        return SummaryReport.write(dir, cases, results.all(), out) ? 0 : 1;
    }

    /** Submits every case and records results as they come; false when one did not come within the timeout. */
    private boolean runAll(HazelcastInstance member, List<SweepCase> todo, ResultsFile results)
            throws InterruptedException {
        IExecutorService executor = member.getExecutorService(EmbeddedMember.EXECUTOR);
        IMap<String, CaseResult> map = member.getMap(RESULTS_MAP);
        BlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
        for (SweepCase c : todo) {
            executor.submit(new CaseTask(c), new ExecutionCallback<CaseResult>() {
                @Override
                public void onResponse(CaseResult response) {
                    arrived.add(response);
                }

                @Override
                public void onFailure(Throwable t) { // the task itself failed: the member could not run it
                    arrived.add(CaseRunner.failed(c, member.getName(), t));
                }
            });
        }
        long start = System.nanoTime();
        int failed = 0;
        for (int done = 1; done <= todo.size(); done++) {
            Object next = arrived.poll(caseTimeout.toMillis(), TimeUnit.MILLISECONDS);
            if (next == null) {
                out.println("[SWEEP] no result within " + caseTimeout.toSeconds() + " s (--case-timeout): "
                        + (todo.size() - done + 1) + " case(s) unfinished; run again with the same --out to resume");
                return false;
            }
            CaseResult r = (CaseResult) next;
            map.set(r.caseId(), r);
            results.append(r);
            failed += r.asExpected() ? 0 : 1;
            long elapsed = System.nanoTime() - start;
            long eta = elapsed / done * (todo.size() - done) / 1_000_000_000L;
            out.println(String.format(Locale.ROOT, "[SWEEP] %d/%d done, %d unexpected, %d remaining, ETA %d s: %s %s%s",
                    done, todo.size(), failed, todo.size() - done, eta, label(r), r.observed(),
                    r.asExpected() ? "" : " (expected " + r.expect() + ")"));
        }
        return true;
    }

    private static String label(CaseResult r) {
        StringBuilder b = new StringBuilder(r.program()).append('/').append(r.preset());
        r.runtimeCfg().forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.append(' ').append(r.platform()).append(" seed=").append(r.seed()).toString();
    }
}
