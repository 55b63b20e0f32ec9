package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.runner.TensorFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Test fixture for hostile work dirs: pristine work dirs of two small registered programs (a chip program and an
 * L3 program) with zero inputs, compiled once, copied per case into a case directory {@code CASE/{wd,in,out}}
 * beside a sibling {@code CASE/outside} holding a sentinel file; text edits; FIFOs; snapshots of a directory tree
 * to show that nothing outside the given directories changed.
 */
final class HostileWorkDirs {
    /** A small registered program, its work dir and its inputs, compiled once per JVM. */
    record Program(String name, Path workDir, Path inputs) {
    }

    /** One case: copies of the work dir and inputs, an outputs dir to be, and the sibling outside dir. */
    record Case(Path root, Path wd, Path in, Path out, Path outside) {
        String[] exec(String... more) {
            List<String> a = new ArrayList<>(List.of("exec", wd.toString(), "--inputs", in.toString(), "--outputs",
                    out.toString()));
            a.addAll(List.of(more));
            return a.toArray(String[]::new);
        }
    }

    /** What an in-process command returned and printed. */
    record Result(int exit, String out, String err) {
    }

    static final String SENTINEL = "sentinel.npy";
    private static Path pristine;
    private static Program chip;
    private static Program l3;

    private HostileWorkDirs() {
    }

    /** basic.vector_add tiny: inputs x, y fp32[128, 256], output z. */
    static synchronized Program chip() {
        if (chip == null) {
            chip = compile("basic.vector_add", "va", Map.of("x", new long[] {128, 256}, "y", new long[] {128, 256}));
        }
        return chip;
    }

    /** l3.tiled_matmul tiny: inputs a fp32[256, 256], b fp32[256, 128], output c, scratch part; 2 chips. */
    static synchronized Program l3() {
        if (l3 == null) {
            l3 = compile("l3.tiled_matmul", "l3", Map.of("a", new long[] {256, 256}, "b", new long[] {256, 128}));
        }
        return l3;
    }

    private static Program compile(String program, String dirName, Map<String, long[]> inputs) {
        try {
            if (pristine == null) {
                pristine = Files.createTempDirectory("jpto-hostile-pristine");
                Path dir = pristine;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            }
            Path wd = pristine.resolve(dirName);
            Result r = run("compile", program, "--preset", "tiny", "-o", wd.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            Path in = pristine.resolve(dirName + "-inputs");
            try (Arena arena = Arena.ofConfined()) {
                Map<String, Tensor> ts = new TreeMap<>();
                inputs.forEach((n, shape) -> ts.put(n, Tensor.allocate(arena, DType.FP32, shape)));
                TensorFiles.write(in, ts);
            }
            return new Program(program, wd, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh case of {@code p} under {@code root}: wd and in copied, out not yet created, outside/sentinel.npy. */
    static Case newCase(Program p, Path root) throws IOException {
        Path wd = copyTree(p.workDir(), root.resolve("wd"));
        Path in = copyTree(p.inputs(), root.resolve("in"));
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve(SENTINEL), "not to be read or overwritten");
        return new Case(root, wd, in, root.resolve("out"), outside);
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Replaces every {@code from} by {@code to}; the case is out of date (an error) if {@code from} is absent. */
    static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        if (!text.contains(from)) {
            throw new IllegalStateException(file + " does not contain '" + from + "': the test is out of date");
        }
        Files.writeString(file, text.replace(from, to));
    }

    /** Replaces {@code file} (if any) by a FIFO; false when mkfifo is not available here. */
    static boolean mkfifo(Path file) throws IOException {
        Files.deleteIfExists(file);
        try {
            Process p = new ProcessBuilder("mkfifo", file.toString()).redirectErrorStream(true).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0 && Files.exists(file, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false; // no mkfifo on this machine
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Every path under {@code dir} (links not followed) with its size and modification time: two equal snapshots
     * mean nothing was created, removed or rewritten there.
     */
    static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.toList()) {
                String what = Files.isSymbolicLink(p) ? "link " + Files.readSymbolicLink(p)
                        : Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? Files.size(p) + " bytes "
                        + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS) : "other";
                m.put(dir.relativize(p).toString(), what);
            }
        }
        return m;
    }

    /** The names directly in {@code dir}. */
    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temporary file is not worth failing a test run for
        }
    }

    private static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.sorted().toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }
}
