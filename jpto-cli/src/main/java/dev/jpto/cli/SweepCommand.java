package dev.jpto.cli;

import dev.jpto.sweep.Sweep;
import dev.jpto.sweep.SweepProgress;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jpto sweep FILE}: a sweep file's cases on an embedded Hazelcast member or a cluster's (docs/sweeps.md). */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = SweepCompareCommand.class,
        description = {"Run every case of a sweep file (programs × presets × runtime_cfg × platforms × seeds) "
                + "on an embedded cluster member bound to loopback, or with --join on the workers of a cluster "
                + "('jpto worker'); a re-run with the same --out resumes.",
            "Exit 0 every case as expected, 1 any not, 2 bad sweep file or options, 3 a result never came."})
final class SweepCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Spec
    CommandSpec commandSpec;

    // optional for picocli, so that 'jpto sweep compare' needs none; call() requires it
    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "the sweep file (YAML or JSON)")
    Path file;

    @Option(names = "--out", paramLabel = "DIR",
            description = "results.jsonl and summary.md go here; finished cases listed there are skipped "
                    + "(default: FILE's name without extension + '-results', in the current directory)")
    Path out;

    @Option(names = "--max-parallel", paramLabel = "N",
            description = "the most cases run at once; fewer when the processors (half of them) or the memory "
                    + "(available / the largest case's expected footprint) allow fewer (default: as many as they "
                    + "allow)")
    Integer maxParallel;

    @Option(names = "--case-timeout", paramLabel = "SECONDS", defaultValue = "3600",
            description = "give up when no case finishes for this long (default ${DEFAULT-VALUE})")
    long caseTimeoutSeconds;

    @Mixin
    ClusterOptions cluster;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Option(names = "--json", description = "print one JSON document at the end (docs/schema/sweep-run.schema.json) "
            + "instead of the progress and summary lines")
    boolean json;

    @Override
    public Integer call() {
        JsonDocument doc = new JsonDocument("sweep");
        // with --json the lines go nowhere, and no bar is drawn; the outcome becomes the document
        PrintStream human = json ? new PrintStream(OutputStream.nullOutputStream()) : top.out;
        int code = Outcome.of("sweep", top.err, verbose, () -> {
            if (file == null) {
                throw new UsageException("missing FILE: 'jpto sweep FILE [options]' runs a sweep file, "
                        + "'jpto sweep compare OLD NEW' compares two sweeps");
            }
            if (caseTimeoutSeconds < 1) {
                throw new UsageException("--case-timeout must be >= 1 second: --case-timeout " + caseTimeoutSeconds
                        + " (try 3600)");
            }
            Path dir = out != null ? out : Path.of(stem(file) + "-results");
            SweepJson.sweep(doc.root(), file, dir, null);
            Sweep sweep = new Sweep(human, maxParallel, Duration.ofSeconds(caseTimeoutSeconds), top.env, joined(),
                    json ? SweepProgress.lines(human) : SweepBar.forTerminal(top.out, top.err, top.env));
            dev.jpto.lib.runner.OutputDir.requireWritable("--out", dir);
            return OutputDirLock.holding(dir, "--out", commandSpec, () -> {
                try {
                    Sweep.Outcome o = sweep.execute(file, dir);
                    SweepJson.sweep(doc.root(), file, dir, o);
                    return o.exitCode();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CancellationException("sweep stopped; run it again with --out " + dir
                            + " to resume");
                }
            });
        }, doc::failed);
        if (json) {
            doc.root().put("passed", code == 0);
            doc.print(top.out);
        }
        return code;
    }

    /** The cluster of --join and its options, or null for an embedded member. */
    private dev.jpto.sweep.ClusterSpec joined() {
        if (!cluster.given()) {
            return null;
        }
        if (cluster.join.isEmpty()) {
            throw new UsageException("--bind, --cluster-name and --secret-file go with --join HOST:PORT[,...]: the "
                    + "cluster to submit to (without --join the sweep runs on a member of its own)");
        }
        if (maxParallel != null) {
            throw new UsageException("--max-parallel has no effect with --join: each worker runs its --slots");
        }
        return cluster.spec("jpto sweep --join");
    }

    private static String stem(Path file) {
        Path name = file.getFileName();
        String s = name == null ? "sweep" : name.toString();
        int dot = s.lastIndexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }
}
