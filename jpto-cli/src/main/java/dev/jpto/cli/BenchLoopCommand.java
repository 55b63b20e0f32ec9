package dev.jpto.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jpto bench loop PROGRAM}: the edit-run loop a user pays, in child JVMs as a user would run them: the JVM's
 * start ({@code jpto --version}), a fresh {@code jpto run --save-tensors} (generate inputs, compute golden, first
 * runtime, warm rounds) and a {@code jpto run --reuse} of what it saved, each stage beside the other run's.
 */
@Command(name = "loop", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The edit-run loop of PROGRAM in child JVMs: JVM start (jpto --version), a fresh run with"
                + " --save-tensors, then a --reuse run of the saved tensors; each stage's seconds, the reuse/fresh"
                + " ratio, first runtime / warm median, wall and peak RSS (through /usr/bin/time when present).",
            "Exit 0 when both runs pass, 1 when a run fails validation, 2 usage, 3 a run that did not finish."})
final class BenchLoopCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A child run is stopped after this long: a pro layer run takes minutes on a loaded 2-core machine. */
    static final long CHILD_TIMEOUT_MINUTES = 60;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(index = "0", paramLabel = "PROGRAM", description = ProgramOptions.PROGRAM_HELP)
    String program;

    @Option(names = "--preset", paramLabel = "NAME", description = "the program's size (default: its default preset)")
    String preset;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3",
            description = "warm benchmark rounds of each run, >= 1 (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "input seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--dir", paramLabel = "DIR", description = "keep the runs' output dirs here (DIR/fresh with the"
            + " saved tensors, DIR/reuse); default: a temporary dir, deleted afterwards")
    Path dir;

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        var out = spec.commandLine().getOut();
        if (rounds < 1) {
            err.println("jpto bench loop: --rounds must be >= 1: --rounds " + rounds + " (try 3)");
            return ExitCodes.USAGE;
        }
        Path base;
        try {
            base = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("jpto-loop");
        } catch (IOException e) {
            err.println("jpto bench loop: cannot create the runs' dir "
                    + (dir != null ? dir : "in " + System.getProperty("java.io.tmpdir")) + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        try {
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            out.printf(java.util.Locale.ROOT, "jpto bench loop %s%s: %d warm round(s), seed %d, %d cores, load %.1f"
                            + ", runs under %s%n", program, preset == null ? "" : " --preset " + preset, rounds, seed,
                    Runtime.getRuntime().availableProcessors(), load, base);
            LoopChild.Result start = LoopChild.run(base.resolve("version.log"), List.of("--version"));
            List<String> common = new ArrayList<>(List.of("run", program, "--seed", Long.toString(seed),
                    "--bench", Integer.toString(rounds), "--json"));
            if (preset != null) {
                common.addAll(List.of("--preset", preset));
            }
            Path freshDir = base.resolve("fresh");
            List<String> freshArgs = new ArrayList<>(common);
            freshArgs.addAll(List.of("--output-dir", freshDir.toString(), "--save-tensors"));
            LoopChild.Result fresh = LoopChild.run(base.resolve("fresh.log"), freshArgs);
            if (fresh.json() == null || !Files.isDirectory(freshDir.resolve("inputs"))) {
                err.println("jpto bench loop: the fresh run did not finish (exit " + fresh.exitCode() + "); its"
                        + " stderr: " + fresh.log());
                return ExitCodes.RUNTIME;
            }
            List<String> reuseArgs = new ArrayList<>(common);
            reuseArgs.addAll(List.of("--output-dir", base.resolve("reuse").toString(), "--reuse",
                    freshDir.toString()));
            LoopChild.Result reuse = LoopChild.run(base.resolve("reuse.log"), reuseArgs);
            long inputBytes = bytesUnder(freshDir.resolve("inputs"));
            LoopTable.lines(start, fresh, reuse, inputBytes).forEach(out::println);
            if (reuse.json() == null) {
                err.println("jpto bench loop: the reuse run did not finish (exit " + reuse.exitCode() + "); its"
                        + " stderr: " + reuse.log());
                return ExitCodes.RUNTIME;
            }
            return fresh.exitCode() == 0 && reuse.exitCode() == 0 ? 0 : 1;
        } finally {
            if (dir == null) {
                deleteTree(base);
            }
        }
    }

    private static long bytesUnder(Path p) {
        try (Stream<Path> files = Files.walk(p)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path p) {
        try (Stream<Path> files = Files.walk(p)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary dir left behind is harmless; the runs' figures are already printed
        }
    }

    /** A child {@code jpto} on this JVM's options, module or class path, timed and its peak RSS taken. */
    static final class LoopChild {
        private LoopChild() {
        }

        /**
         * @param wallSeconds the child's wall time as seen from here (JVM start to exit)
         * @param peakRssKb   its maximum resident set (KiB) from {@code /usr/bin/time}, or -1 without it
         * @param json        its {@code --json} document, or null when it printed none
         * @param log         the file holding its stderr
         */
        record Result(int exitCode, double wallSeconds, long peakRssKb, JsonNode json, Path log) {
        }

        static Result run(Path log, List<String> args) {
            Path rss = log.resolveSibling(log.getFileName() + ".rss");
            Path time = Path.of("/usr/bin/time");
            List<String> cmd = new ArrayList<>();
            if (Files.isExecutable(time)) {
                cmd.addAll(List.of(time.toString(), "-f", "%M", "-o", rss.toString()));
            }
            cmd.addAll(command());
            cmd.addAll(args);
            Path stdout = log.resolveSibling(log.getFileName() + ".out");
            try {
                long t0 = System.nanoTime();
                Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(log.toFile())
                        .start();
                if (!p.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    throw new IllegalStateException("jpto bench loop: '" + String.join(" ", args) + "' ran over "
                            + CHILD_TIMEOUT_MINUTES + " min and was stopped; its stderr: " + log);
                }
                double wall = (System.nanoTime() - t0) / 1e9;
                String text = Files.readString(stdout);
                JsonNode json = text.strip().startsWith("{") ? JSON.readTree(text) : null;
                return new Result(p.exitValue(), wall, peakRss(rss), json, log);
            } catch (IOException e) {
                throw new UncheckedIOException("jpto bench loop: running " + cmd.getFirst() + ": " + e.getMessage(),
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("jpto bench loop: interrupted", e);
            }
        }

        private static long peakRss(Path rss) throws IOException {
            if (!Files.exists(rss)) {
                return -1;
            }
            List<String> lines = Files.readAllLines(rss);
            String last = lines.isEmpty() ? "" : lines.getLast().strip();
            return last.matches("\\d+") ? Long.parseLong(last) : -1;
        }

        /** This JVM again: its options (the launcher's AOT cache included), then the CLI on its module/class path. */
        static List<String> command() {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()));
            for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (!a.startsWith("-Djdk.module.")) { // the launcher's -p and -m, given again below
                    cmd.add(a);
                }
            }
            Module cli = Main.class.getModule();
            String modulePath = System.getProperty("jdk.module.path");
            if (cli.isNamed() && modulePath != null) {
                cmd.addAll(List.of("-p", modulePath, "-m", cli.getName() + "/" + Main.class.getName()));
            } else {
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
            }
            return cmd;
        }
    }
}
