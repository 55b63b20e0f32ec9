package dev.jpto.lib.fuzz;

import dev.jpto.lib.runner.TensorFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

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
        Path root = tempDir("jpto-fuzz-");
        FuzzSummary summary = new FuzzSummary();
        out.println("[FUZZ] seed=" + s.seed() + (s.count() > 0 ? " count=" + s.count() : "")
                + (s.duration().isZero() ? "" : " seconds=" + s.duration().toSeconds()) + " deadline="
                + s.deadline().toMillis() + "ms per program");
        long t0 = System.nanoTime();
        long end = s.duration().isZero() ? Long.MAX_VALUE : t0 + s.duration().toNanos();
        long nextProgress = t0 + s.progressEvery().toNanos();
        int shrunk = 0;
        try (FuzzRunner runner = new FuzzRunner(root, s.deadline(), reference)) {
            for (long i = 0; (s.count() == 0 || i < s.count()) && System.nanoTime() < end; i++) {
                long seed = s.seed() + i;
                FuzzCase c;
                Outcome o;
                try {
                    c = ProgramGenerator.generate(seed, s.generator());
                    o = runner.run(c);
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
                                : s.shrinkRuns(), out);
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
        } finally {
            summary.elapsed(System.nanoTime() - t0);
            deleteQuietly(root);
        }
        out.println("[FUZZ] " + summary.countsLine());
        out.println("[FUZZ] " + summary.codesLine());
        out.println(summary.findings() == 0 ? "[FUZZ] PASS: no findings"
                : "[FUZZ] FAIL: " + summary.findings() + " finding(s), seeds " + summary.findingSeeds());
        return summary;
    }

    private static String describe(Outcome o) {
        return switch (o) {
            case Outcome.Pass p -> "PASS " + p.tasks() + " tasks";
            case Outcome.ExpectedError e -> "ring error " + e.code().code() + " " + e.code();
            case Outcome.Finding f -> "FINDING " + f.signature();
        };
    }

    /** Shrinks the case while the finding keeps its signature; prints the reduced program and its work dir. */
    private static void reproducer(FuzzCase c, Outcome.Finding f, FuzzRunner runner, int maxRuns, PrintStream out) {
        out.println("[FUZZ] shrinking (at most " + maxRuns + " runs) while '" + f.signature() + "' persists");
        Shrinker.Result r = Shrinker.shrink(c, x -> runner.run(x) instanceof Outcome.Finding g
                && g.signature().equals(f.signature()), maxRuns);
        out.println("[FUZZ] reduced in " + r.runs() + " runs (" + r.accepted() + " steps): " + r.sizes());
        out.print(r.reduced().describe().indent(2));
        try {
            Path dir = Files.createTempDirectory("jpto-fuzz-repro-" + Long.toUnsignedString(c.seed()) + "-");
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
            out.println("[FUZZ] could not write the reduced work dir: " + e);
        }
    }

    private static Path tempDir(String prefix) {
        try {
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
