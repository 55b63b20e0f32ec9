package dev.jpto.tools.fuzz;

import dev.jpto.lib.runner.TensorFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CancellationException;

/**
 * A fuzz session: programs of seeds {@code seed, seed+1, …} until the count or the time runs out, each run on a
 * chip and against the sequential reference ({@link FuzzRunner}); progress lines, a reduced reproducer for each
 * finding ({@link Shrinker}), and a summary ({@link FuzzSummary}).
 */
public final class Fuzzer {
    /**
     * @param seed          the first program's seed
     * @param count         programs to run; 0 = no limit (then {@code duration} must be set)
     * @param duration      how long to run; {@link Duration#ZERO} = no limit (then {@code count} must be set)
     * @param deadline      how long one program may run before it counts as a hang
     * @param verbose       one line per program
     * @param shrinkRuns    candidate runs the shrinker may spend on one finding (0 = do not shrink)
     * @param maxShrinks    findings to shrink (the first ones); later findings print their seed only
     * @param progressEvery how often to print a progress line
     * @param generator     the generator's bounds
     */
    public record Settings(long seed, long count, Duration duration, Duration deadline, boolean verbose,
                           int shrinkRuns, int maxShrinks, Duration progressEvery,
                           ProgramGenerator.Options generator) {
        public Settings {
            if (count < 0) {
                throw new IllegalArgumentException("--count must be >= 0 (0 = until the time runs out): " + count);
            }
            if (duration.isNegative()) {
                throw new IllegalArgumentException("--seconds must be >= 0: " + duration.toSeconds());
            }
            if (count == 0 && duration.isZero()) {
                throw new IllegalArgumentException("give --seconds N or --count K (or both): a fuzz session needs a "
                        + "bound");
            }
            if (deadline.isNegative() || deadline.isZero()) {
                throw new IllegalArgumentException("the per-program deadline must be positive: " + deadline);
            }
        }

        public static Settings of(long seed, long count, Duration duration) {
            return new Settings(seed, count, duration, Duration.ofSeconds(30), false, 400, 3, Duration.ofSeconds(10),
                    ProgramGenerator.Options.defaults());
        }

        public Settings withVerbose(boolean v) {
            return new Settings(seed, count, duration, deadline, v, shrinkRuns, maxShrinks, progressEvery, generator);
        }

        public Settings withDeadline(Duration d) {
            return new Settings(seed, count, duration, d, verbose, shrinkRuns, maxShrinks, progressEvery, generator);
        }
    }

    private Fuzzer() {
    }

    /** Runs a session with {@link ReferenceExecutor} as the reference; reports on {@code out}. */
    public static FuzzSummary run(Settings s, PrintStream out) {
        return run(s, out, ReferenceExecutor::run);
    }

    /** Runs a session against {@code reference} (tests inject faults through it). */
    public static FuzzSummary run(Settings s, PrintStream out, FuzzRunner.Reference reference) {
        return run(s, out, reference, null);
    }

    /**
     * Runs a session against {@code reference}, with its scratch work dirs and any reproducer under
     * {@code tempParent} (null: scratch in /dev/shm when writable, reproducers in the system temporary directory).
     *
     * <p>An interrupt of the calling thread (Ctrl-C) stops the session: the program running then is not counted
     * (whatever the interrupt did to it is no finding), the summary so far is printed and marked interrupted
     * ({@link FuzzSummary#wasInterrupted()}), scratch work dirs are deleted, and the interrupt status is kept.
     */
    public static FuzzSummary run(Settings s, PrintStream out, FuzzRunner.Reference reference, Path tempParent) {
        Path root = tempDir(tempParent, "jpto-fuzz-");
        FuzzSummary summary = new FuzzSummary();
        out.println("[FUZZ] seed=" + s.seed() + (s.count() > 0 ? " count=" + s.count() : "")
                + (s.duration().isZero() ? "" : " seconds=" + s.duration().toSeconds()) + " deadline="
                + s.deadline().toMillis() + "ms per program; scratch work dirs under " + root);
        long t0 = System.nanoTime();
        try (FuzzRunner runner = new FuzzRunner(root, s.deadline(), reference)) {
            session(s, out, runner, tempParent, summary, t0);
        } catch (CancellationException e) {
            summary.interrupted();
        } finally {
            summary.elapsed(System.nanoTime() - t0);
            deleteQuietly(root);
        }
        out.println("[FUZZ] " + summary.countsLine());
        out.println("[FUZZ] " + summary.codesLine());
        String findings = summary.findings() == 0 ? "no findings"
                : summary.findings() + " finding(s), seeds " + summary.findingSeeds();
        out.println(summary.wasInterrupted() ? "[FUZZ] INTERRUPTED after " + summary.programs() + " program(s) (the "
                + "one running then is not counted): " + findings + " so far"
                : summary.findings() == 0 ? "[FUZZ] PASS: no findings" : "[FUZZ] FAIL: " + findings);
        return summary;
    }

    /** The programs of the session; throws {@link CancellationException} when the thread is interrupted. */
    private static void session(Settings s, PrintStream out, FuzzRunner runner, Path tempParent,
                                FuzzSummary summary, long t0) {
        long end = s.duration().isZero() ? Long.MAX_VALUE : t0 + s.duration().toNanos();
        long nextProgress = t0 + s.progressEvery().toNanos();
        int shrunk = 0;
        for (long i = 0; (s.count() == 0 || i < s.count()) && System.nanoTime() < end; i++) {
            long seed = s.seed() + i;
            FuzzCase c;
            Outcome o;
            try {
                c = ProgramGenerator.generate(seed, s.generator());
                o = runUninterrupted(runner, c);
            } catch (CancellationException e) {
                throw e;
            } catch (RuntimeException e) {
                c = null;
                o = new Outcome.Finding(Outcome.Kind.UNEXPECTED_ERROR, null, "generate " + e.getClass().getName()
                        + ": " + e.getMessage());
            }
            summary.add(seed, o);
            if (s.verbose()) {
                out.println("[FUZZ] seed " + seed + " " + describe(o) + (c == null ? "" : " (" + c.runtimeCfg()
                        + ")"));
            }
            if (o instanceof Outcome.Finding f) {
                out.println("[FUZZ] FINDING seed=" + seed + " " + f);
                if (c != null && shrunk < s.maxShrinks() && s.shrinkRuns() > 0) {
                    shrunk++;
                    // a hang costs a whole deadline per run: shrink it only a little
                    reproducer(c, f, runner, f.kind() == Outcome.Kind.HANG ? Math.min(8, s.shrinkRuns())
                            : s.shrinkRuns(), tempParent, out);
                }
                out.println("[FUZZ] replay: " + FuzzCase.replayCommand(seed));
            }
            long now = System.nanoTime();
            if (now >= nextProgress) {
                summary.elapsed(now - t0);
                out.println("[FUZZ] " + summary.programs() + " programs (" + String.format(java.util.Locale.ROOT,
                        "%.1f", summary.programsPerSecond()) + "/s) passes=" + summary.passes() + " ring_errors="
                        + summary.ringErrors() + " findings=" + summary.findings());
                nextProgress = now + s.progressEvery().toNanos();
            }
        }
    }

    /**
     * Runs {@code c}, or throws {@link CancellationException} if the thread was interrupted before or during the
     * run: an interrupt makes file writes fail and chip runs stop, so whatever the run says then is not about the
     * program.
     */
    private static Outcome runUninterrupted(FuzzRunner runner, FuzzCase c) {
        if (Thread.currentThread().isInterrupted()) {
            throw new CancellationException("interrupted before program seed " + c.seed());
        }
        Outcome o = runner.run(c);
        if (Thread.currentThread().isInterrupted()) {
            throw new CancellationException("interrupted during program seed " + c.seed());
        }
        return o;
    }

    private static String describe(Outcome o) {
        return switch (o) {
            case Outcome.Pass p -> "PASS " + p.tasks() + " tasks";
            case Outcome.ExpectedError e -> "ring error " + e.code().code() + " " + e.code();
            case Outcome.Finding f -> "FINDING " + f.signature();
        };
    }

    /** Shrinks the case while the finding keeps its signature; prints the reduced program and its work dir. */
    private static void reproducer(FuzzCase c, Outcome.Finding f, FuzzRunner runner, int maxRuns, Path tempParent,
                                   PrintStream out) {
        out.println("[FUZZ] shrinking (at most " + maxRuns + " runs) while '" + f.signature() + "' persists");
        Shrinker.Result r = Shrinker.shrink(c, x -> runUninterrupted(runner, x) instanceof Outcome.Finding g
                && g.signature().equals(f.signature()), maxRuns);
        out.println("[FUZZ] reduced in " + r.runs() + " runs (" + r.accepted() + " steps): " + r.sizes());
        out.print(r.reduced().describe().indent(2));
        Path dir = null;
        try {
            String prefix = "jpto-fuzz-repro-" + Long.toUnsignedString(c.seed()) + "-";
            dir = tempParent == null ? Files.createTempDirectory(prefix)
                    : Files.createTempDirectory(tempParent, prefix);
            FuzzRunner.writeWorkDir(r.reduced(), dir.resolve("work_dir"));
            try (Arena arena = Arena.ofConfined()) {
                TensorFiles.write(dir.resolve("inputs"), FuzzInputs.create(arena, r.reduced().program(), c.seed()));
            }
            StringBuilder cfg = new StringBuilder();
            r.reduced().nonDefaultCfg().forEach((k, v) -> {
                if (!k.equals("platform")) {
                    cfg.append(" --runtime-cfg ").append(k).append('=').append(v);
                }
            });
            out.println("[FUZZ] reduced work dir: " + dir.resolve("work_dir") + "; run it with: jpto exec "
                    + dir.resolve("work_dir") + " --inputs " + dir.resolve("inputs") + " --outputs "
                    + dir.resolve("outputs") + " -p " + r.reduced().config().platform().text() + cfg);
        } catch (IOException | RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                // an interrupt fails the writes: a half-written reproducer is no use, the replay line remains
                if (dir != null) {
                    deleteQuietly(dir);
                }
                throw new CancellationException("interrupted while writing the reproducer of seed " + c.seed());
            }
            out.println("[FUZZ] could not write the reduced work dir: " + e);
        }
    }

    private static Path tempDir(Path parent, String prefix) {
        try {
            if (parent != null) {
                return Files.createTempDirectory(parent, prefix);
            }
            Path shm = Path.of("/dev/shm");
            return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, prefix)
                    : Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for fuzz work dirs", e);
        }
    }

    private static void deleteQuietly(Path root) {
        try (var files = Files.walk(root)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless; the session's result stands
        }
    }
}
