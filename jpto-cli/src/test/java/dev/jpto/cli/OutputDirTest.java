package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.runtime.io.DirLock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directories commands write: a compile owns its work dir, a run reusing its output dir replaces the earlier
 * run's files, and two commands never write one directory at once (issue 20, items 6 and 7).
 */
@Timeout(300)
@SuppressWarnings("try") // locks held for their scope
class OutputDirTest {
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path tmp;

    /** One command's exit code and its two streams. */
    private record Result(int code, String out, String err) {
    }

    private static Result jpto(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Every path under {@code root}, relative, sorted. */
    private static List<String> tree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    private static List<String> top(Path root) throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aChipProgramCompiledOverAnL3WorkDirIsTheProgramExecRuns() throws IOException {
        Path run = tmp.resolve("run");
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--output-dir", run.toString(), "--save-tensors")
                .code()).isZero();
        Path d = tmp.resolve("d");
        assertThat(jpto("compile", "l3.tiled_matmul", "--preset", "tiny", "-o", d.toString()).code()).isZero();
        Result chip = jpto("compile", "basic.matmul", "--preset", "tiny", "-o", d.toString());
        assertThat(chip.code()).as(chip.err()).isZero();
        assertThat(d.resolve("l3.json")).doesNotExist();
        assertThat(d.resolve("chips")).doesNotExist();

        Path o = tmp.resolve("o");
        Result exec = jpto("exec", d.toString(), "--inputs", run.resolve("inputs").toString(), "--outputs",
                o.toString());
        assertThat(exec.code()).as(exec.err()).isZero();
        // the stale l3.json used to win: exec ran the L3 program ("L3 wall", [L3] lines)
        assertThat(exec.out()).contains("[RUN] runtime (").contains(" matmul: ").doesNotContain("L3");
        assertThat(Files.mismatch(run.resolve("outputs/c.npy"), o.resolve("c.npy"))).isEqualTo(-1L);
    }

    @Test
    void compileRefusesANonEmptyDirectoryThatIsNotAWorkDirUnlessForced() throws IOException {
        Path home = Files.createDirectory(tmp.resolve("home"));
        Files.writeString(home.resolve("notes.txt"), "mine\n");
        Result refused = jpto("compile", "basic.vector_add", "--preset", "tiny", "-o", home.toString());
        assertThat(refused.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).startsWith("jpto compile: " + home + ": is not empty and holds no jpto work dir "
                + "(no manifest.json or l3.json; it holds notes.txt): refusing to compile into it.")
                .contains("pass --force").hasLineCount(1);
        assertThat(tree(home)).as("not even a lock file").containsExactly("notes.txt");

        Result forced = jpto("compile", "basic.vector_add", "--preset", "tiny", "-o", home.toString(), "--force");
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(Files.readString(home.resolve("notes.txt"))).isEqualTo("mine\n");
        assertThat(CompiledProgram.load(home).name()).isEqualTo("vector_add");
    }

    @Test
    void aRunReusingItsOutputDirReplacesTheEarlierRunsFilesAndKeepsOthers() throws IOException {
        Path d = tmp.resolve("d");
        Result l3 = jpto("run", "l3.tiled_matmul", "--preset", "tiny", "--output-dir", d.toString(),
                "--enable-dep-gen", "--dump-args", "--save-tensors");
        assertThat(l3.code()).as(l3.err()).isZero();
        assertThat(top(d)).contains("device_0", "golden", "inputs", "outputs", "work_dir");
        assertThat(d.resolve("device_0/mm_r0_k0/deps.json")).isRegularFile();
        assertThat(d.resolve("work_dir/l3.json")).isRegularFile();
        Files.writeString(d.resolve("notes.txt"), "mine\n");

        Result add = jpto("run", "basic.vector_add", "--preset", "tiny", "--output-dir", d.toString(), "--enable-pmu");
        assertThat(add.code()).as(add.err()).isZero();
        assertThat(tree(d)).containsExactly(DirLock.FILE_NAME, "notes.txt", "pmu.csv", "work_dir", "work_dir/kernels",
                "work_dir/kernels/add_tile.pto", "work_dir/manifest.json", "work_dir/orchestration.json");
    }

    @Test
    void aRunRefusesANonEmptyOutputDirThatHoldsNoEarlierRun() throws IOException {
        Path home = Files.createDirectory(tmp.resolve("home"));
        Files.createDirectories(home.resolve("outputs"));
        Files.writeString(home.resolve("outputs/results.npy"), "mine");
        Files.writeString(home.resolve("notes.txt"), "mine\n");
        Result r = jpto("run", "basic.vector_add", "--preset", "tiny", "--output-dir", home.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("jpto run: the output dir " + home + " is not empty and holds no earlier jpto "
                + "run (no work_dir/; it holds notes.txt): a run replaces the files it writes there, so give a new or "
                + "empty directory\n");
        assertThat(tree(home)).containsExactly("notes.txt", "outputs", "outputs/results.npy");
    }

    @Test
    void aCommandOnADirectoryAnotherHoldsWaitsThenRefusesNamingTheHolder() throws IOException {
        Path d = tmp.resolve("d");
        try (DirLock held = DirLock.acquire(d, "jpto run basic.matmul --output-dir d", Duration.ZERO)) {
            long start = System.nanoTime();
            Result run = jpto("run", "basic.vector_add", "--preset", "tiny", "--output-dir", d.toString());
            assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err()).isEqualTo("jpto run: --output-dir " + d + " is in use by another jpto command (pid "
                    + PID + " (this process): jpto run basic.matmul --output-dir d), still after waiting 5.0s: let it "
                    + "finish, or use another directory\n");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(OutputDirLock.WAIT);

            Result compile = jpto("compile", "basic.vector_add", "--preset", "tiny", "-o", d.toString());
            assertThat(compile.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(compile.err()).startsWith("jpto compile: -o " + d + " is in use by another jpto command (pid "
                    + PID + " (this process): jpto run basic.matmul --output-dir d)");
            assertThat(top(d)).containsExactly(DirLock.FILE_NAME);
        }
    }

    @Test
    void aCommandWaitingForTheLockRunsOnceTheHolderIsDoneAndRecordsItsCommandLine() throws Exception {
        Path d = tmp.resolve("d");
        Path lockFile = d.resolve(DirLock.FILE_NAME);
        DirLock held = DirLock.acquire(d, "holder", Duration.ZERO);
        String[] args = {"run", "basic.vector_add", "--preset", "tiny", "--output-dir", d.toString()};
        CompletableFuture<Result> waiting = CompletableFuture.supplyAsync(() -> jpto(args));
        Thread.sleep(500);
        assertThat(waiting).as("waits while the lock is held").isNotDone();
        held.close();
        String expected = PID + " jpto " + String.join(" ", args) + "\n";
        String seen = "";
        while (!waiting.isDone() && !seen.equals(expected)) {
            seen = Files.readString(lockFile);
            Thread.sleep(5);
        }
        Result r = waiting.get(120, TimeUnit.SECONDS);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(seen).as("the lock file while the run held it").isEqualTo(expected);
        assertThat(Files.readString(lockFile)).as("emptied when the run ended").isEmpty();
    }

    @Test
    void twoRunsOnOneOutputDirAtOnceNeverMix() throws Exception {
        Path d = tmp.resolve("d");
        List<CompletableFuture<Result>> runs = new ArrayList<>();
        for (String seed : new String[] {"1", "2"}) {
            runs.add(CompletableFuture.supplyAsync(() -> jpto("run", "basic.vector_add", "--preset", "tiny",
                    "--seed", seed, "--output-dir", d.toString(), "--save-tensors")));
        }
        List<Result> results = new ArrayList<>();
        for (CompletableFuture<Result> f : runs) {
            results.add(f.get(240, TimeUnit.SECONDS));
        }
        // the second waits up to 5 s: it either runs after the first or refuses; never exit 1 or 3 from a mix
        assertThat(results).allSatisfy(r -> assertThat(r.code()).as(r.err()).isIn(ExitCodes.PASS, ExitCodes.USAGE));
        assertThat(results).anySatisfy(r -> assertThat(r.code()).isZero());
        results.stream().filter(r -> r.code() == ExitCodes.USAGE).forEach(r -> assertThat(r.err())
                .contains("is in use by another jpto command (pid " + PID + " (this process): jpto run "
                        + "basic.vector_add --preset tiny --seed "));
        assertThat(CompiledProgram.load(d.resolve("work_dir")).name()).isEqualTo("vector_add");
        assertThat(tree(d.resolve("outputs"))).containsExactly("z.npy");
    }
}
