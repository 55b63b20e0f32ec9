package dev.jpto.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code jpto sweep}: runs a sweep file's cases on the members of a cluster — one member embedded in this process
 * by default, or the workers of the cluster it joins — records each result in an {@code IMap} and in
 * {@code DIR/results.jsonl} as it arrives, skips cases already in that file (resume), and ends with summary lines,
 * {@code DIR/summary.md} and {@code DIR/summary.html}.
 *
 * @param out         progress and summary lines
 * @param maxParallel the most cases run at once on the embedded member, or null: as many as {@link Concurrency}
 *                    allows (unused when joining: workers have their slots)
 * @param caseTimeout the longest wait for the next result before the sweep gives up (exit 3)
 * @param env         the environment ($JPTO_CACHE_DIR)
 * @param cluster     the cluster to join as a lite member, or null for a member of its own
 * @param progress    how results are shown as they arrive; null: one line each on {@code out}
 */
public record Sweep(PrintStream out, Integer maxParallel, Duration caseTimeout, Map<String, String> env,
                    ClusterSpec cluster, SweepProgress progress) {
    /**
     * What a sweep came to.
     *
     * @param exitCode 0 every case as expected, 1 any not, 3 a result never came
     * @param cases    the sweep file's cases, in file order
     * @param results  every result in results.jsonl (this run's and earlier ones'), as its JSON lines
     * @param ranNow   cases this run had to run (the rest had results already)
     * @param parallel the cases at once on the embedded member; null on the workers of a cluster
     */
    public record Outcome(int exitCode, List<SweepCase> cases, List<JsonNode> results, int ranNow,
                          Concurrency parallel) {
    }

    public Sweep {
        progress = progress != null ? progress : SweepProgress.lines(out);
        if (maxParallel != null && maxParallel < 1) {
            throw new IllegalArgumentException("--max-parallel must be >= 1: --max-parallel " + maxParallel
                    + " (try " + defaultParallel() + ")");
        }
    }

    /** A sweep showing one line per result. */
    public Sweep(PrintStream out, Integer maxParallel, Duration caseTimeout, Map<String, String> env,
                 ClusterSpec cluster) {
        this(out, maxParallel, caseTimeout, env, cluster, null);
    }

    /** A sweep on a member of its own. */
    public Sweep(PrintStream out, Integer maxParallel, Duration caseTimeout, Map<String, String> env) {
        this(out, maxParallel, caseTimeout, env, null);
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
     * @throws IllegalArgumentException when the cluster refuses this submitter or has no member (exit 2)
     * @throws InterruptedException when the calling thread is interrupted (the member is shut down first)
     */
    public int run(Path file, Path dir) throws InterruptedException {
        return execute(file, dir).exitCode();
    }

    /** {@link #run}, with what the sweep came to. */
    public Outcome execute(Path file, Path dir) throws InterruptedException {
        ProgramRefs refs = new ProgramRefs(env);
        List<SweepCase> cases = SweepFile.read(file, refs);
        dev.jpto.lib.runner.OutputDir.requireWritable("--out", dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("--out " + dir + ": cannot create the directory", e);
        }
        boolean resuming = Files.exists(dir.resolve(ResultsFile.NAME));
        ResultsFile results = ResultsFile.open(dir);
        List<SweepCase> todo = cases.stream().filter(c -> !results.has(c.id())).toList();
        Concurrency parallel = cluster == null ? Concurrency.forCases(todo, refs, maxParallel) : null;
        out.println("[SWEEP] " + file + ": " + cases.size() + " case(s), " + (cases.size() - todo.size())
                + " already in " + dir.resolve(ResultsFile.NAME) + ", " + todo.size() + " to run, "
                + (cluster == null ? parallel.slots() + " at a time (" + parallel.reason() + ")"
                        : "on the workers of " + cluster.join()));
        if (!todo.isEmpty()) {
            String resultsMap = ResultsMapName.of(dir, resuming);
            HazelcastInstance member = cluster == null
                    ? SweepMember.embedded(parallel.slots(), name -> new CaseRunner(refs, name,
                            CaseRunner.share(parallel.slots())))
                    : SweepMember.start(cluster, 0, null);
            try {
                if (!new Dispatcher(member, resultsMap, results, out, caseTimeout, progress).run(todo)) {
                    SummaryReport.write(dir, cases, results.all(), out);
                    return new Outcome(3, cases, results.all(), todo.size(), parallel);
                }
                forget(member, resultsMap);
            } finally {
                member.shutdown();
            }
        }
        int code = SummaryReport.write(dir, cases, results.all(), out) ? 0 : 1;
        return new Outcome(code, cases, results.all(), todo.size(), parallel);
    }

    /** Drops the sweep's results map: every result is in results.jsonl now (no data member left: nothing to do). */
    private static void forget(HazelcastInstance member, String resultsMap) {
        if (member.getCluster().getMembers().stream().anyMatch(m -> !m.isLiteMember())) {
            member.getMap(resultsMap).destroy();
        }
    }

    static String label(CaseResult r) {
        return SweepCase.label(r.program(), r.preset(), r.runtimeCfg(), r.platform(), r.seed());
    }
}
