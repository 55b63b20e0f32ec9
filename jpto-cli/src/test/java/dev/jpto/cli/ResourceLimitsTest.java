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
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 items 3, 10, 11 and the chip numbers: resource bombs, unwritable outputs and late refusals are refused
 * with exit 2 before the first stage (no compile, no input read, nothing allocated, nothing written), in one line
 * naming the tensor, flag or path. Driven through the real command lines in-process.
 */
@Timeout(120)
class ResourceLimitsTest {
    @TempDir
    static Path shared;
    /** basic.vector_add:tiny compiled, its inputs x.npy and y.npy (fp32[128, 256]), and l3.tiled_matmul:tiny. */
    private static Path workDir;
    private static Path inputs;
    private static Path l3WorkDir;

    private record Result(int code, String out, String err) {
    }

    private static Result jpto(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @BeforeAll
    static void compileOnce() {
        workDir = shared.resolve("wd");
        assertThat(jpto("compile", "basic.vector_add", "--preset", "tiny", "-o", workDir.toString()).code()).isZero();
        l3WorkDir = shared.resolve("l3");
        assertThat(jpto("compile", "l3.tiled_matmul", "--preset", "tiny", "-o", l3WorkDir.toString()).code())
                .isZero();
        inputs = shared.resolve("inputs");
        try (Arena arena = Arena.ofConfined()) {
            TensorFiles.write(inputs, Map.of("x", Tensor.allocate(arena, DType.FP32, 128, 256),
                    "y", Tensor.allocate(arena, DType.FP32, 128, 256)));
        }
    }

    /** A copy of {@code src} in {@code tmp}. */
    private static Path copy(Path src, Path tmp) throws IOException {
        Path dst = tmp.resolve("copy");
        try (Stream<Path> files = Files.walk(src)) {
            for (Path p : files.sorted().toList()) {
                Path target = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return dst;
    }

    /** The vector_add work dir with its output 'z' declared as {@code shape} (a hand-edited, 1 KB manifest). */
    private static Path bomb(Path tmp, String shape) throws IOException {
        Path wd = copy(workDir, tmp);
        Path manifest = wd.resolve("manifest.json");
        String text = Files.readString(manifest);
        int outputs = text.indexOf("\"outputs\"");
        String edited = text.substring(0, outputs) + text.substring(outputs).replaceFirst(
                "\"shape\" : \\[ 128, 256 \\]", "\"shape\" : " + shape);
        assertThat(edited).as("the manifest's output shape was edited").isNotEqualTo(text);
        Files.writeString(manifest, edited);
        return wd;
    }

    private static void assertOneLineNoTrace(Result r) {
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).doesNotContain("\tat ");
    }

    @Test
    void aManifestDeclaringA16GiBOutputIsRefusedBeforeAnythingIsReadAllocatedOrWritten(@TempDir Path tmp)
            throws IOException {
        Path outs = tmp.resolve("outs");
        Result r = jpto("exec", bomb(tmp, "[ 65536, 65536 ]").toString(), "--inputs", inputs.toString(),
                "--outputs", outs.toString(), "--max-memory", "8GiB");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        // 65536 * 65536 * 4 bytes = 16GiB; with x and y (128 * 256 * 4 bytes each) 16GiB + 256KiB in all
        assertThat(r.err()).startsWith("jpto exec: output 'z' fp32[65536, 65536] needs 16GiB (17179869184 bytes); "
                        + "the 3 tensor(s) of the command need 16.0GiB in all, over the memory budget of 8GiB "
                        + "(--max-memory 8GiB); nothing was allocated (give --max-memory SIZE");
        assertOneLineNoTrace(r);
        assertThat(r.out()).doesNotContain("[RUN] runtime");
        assertThat(outs).doesNotExist();
    }

    @Test
    void theDefaultBudgetIsAShareOfPhysicalMemoryAndRefusesA4TiBOutput(@TempDir Path tmp) throws IOException {
        Path outs = tmp.resolve("outs");
        Result r = jpto("exec", bomb(tmp, "[ 1048576, 1048576 ]").toString(), "--inputs", inputs.toString(),
                "--outputs", outs.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("jpto exec: output 'z' fp32[1048576, 1048576] needs 4TiB (4398046511104 bytes)")
                .containsPattern("over the memory budget of [0-9.]+[KMGT]iB \\(75% of the [0-9.]+[KMGT]iB of "
                        + "physical memory\\)")
                .contains("--max-memory");
        assertOneLineNoTrace(r);
        assertThat(outs).doesNotExist();
    }

    @Test
    void outputsLargerThanTheFreeDiskAreRefusedNamingTheDirectoryTheBytesAndTheFreeSpace(@TempDir Path tmp)
            throws IOException {
        long need = 2097152L * 2097152 * 4 + 4096; // fp32[2097152, 2097152] as .npy: 16TiB and a header block
        Assumptions.assumeTrue(Files.getFileStore(tmp).getUsableSpace() < need, "a disk with 16TiB free");
        Path outs = tmp.resolve("outs");
        Result r = jpto("exec", bomb(tmp, "[ 2097152, 2097152 ]").toString(), "--inputs", inputs.toString(),
                "--outputs", outs.toString(), "--max-memory", "64TiB");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("jpto exec: not enough disk space for --outputs " + outs + ": the command "
                + "writes 16.0TiB (" + need + " bytes) there, and " + tmp + "'s file system has ")
                .contains(" free; free some space or give another directory");
        assertOneLineNoTrace(r);
        assertThat(outs).doesNotExist();
    }

    @Test
    void maxMemoryOnATinyRunRefusesItBeforeTheCompileNamingTheFlag() {
        Result r = jpto("run", "basic.vector_add", "--preset", "tiny", "--max-memory", "1KiB");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        // inputs x, y: fp32[128, 256] = 128KiB each; output z twice (golden and chip) = 256KiB
        assertThat(r.err()).isEqualToIgnoringNewLines("jpto run: output 'z' fp32[128, 256] (2 copies) needs 256KiB "
                + "(262144 bytes); the 3 tensor(s) of the command need 512KiB in all, over the memory budget of 1KiB "
                + "(--max-memory 1KiB); nothing was allocated (give --max-memory SIZE to change the budget, e.g. "
                + "--max-memory 1MiB)");
        assertThat(r.out()).doesNotContain("[RUN] compile");
        Result exec = jpto("exec", workDir.toString(), "--inputs", inputs.toString(), "--outputs",
                shared.resolve("never").toString(), "--max-memory", "1KiB");
        assertThat(exec.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(exec.err()).contains("over the memory budget of 1KiB (--max-memory 1KiB)");
        assertThat(jpto("run", "basic.vector_add", "--max-memory", "0").err())
                .contains("--max-memory must be at least 1 byte: --max-memory 0");
    }

    @Test
    void outputsUnderARegularFileAreRefusedBeforeTheRun(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        Result exec = jpto("exec", workDir.toString(), "--inputs", inputs.toString(), "--outputs",
                file.resolve("outs").toString());
        assertThat(exec.code()).as(exec.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(exec.err()).isEqualToIgnoringNewLines("jpto exec: --outputs " + file.resolve("outs")
                + " cannot be created: " + file + " is not a directory; give a directory (created if missing)");
        assertThat(exec.out()).doesNotContain("[RUN] runtime");

        Result run = jpto("run", "basic.vector_add", "--preset", "tiny", "--output-dir", file.resolve("o").toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("jpto run: --output-dir " + file.resolve("o") + " cannot be created: " + file
                + " is not a directory");
        assertThat(run.out()).doesNotContain("[RUN] compile");

        Result dfx = jpto("run", "basic.vector_add", "--preset", "tiny", "--enable-dep-gen", "--runtime-cfg",
                "output_prefix=" + file);
        assertThat(dfx.code()).as(dfx.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(dfx.err()).isEqualToIgnoringNewLines("jpto run: runtime_cfg output_prefix " + file
                + " is not a directory; give a directory (created if missing)");
        assertThat(dfx.out()).doesNotContain("[RUN] compile");
    }

    @Test
    void anIoErrorAnywhereInACommandIsExitTwoWithThePathAndTheOsReason() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(err, true, StandardCharsets.UTF_8);
        int denied = Outcome.of("exec", ps, false, () -> {
            throw new UncheckedIOException("cannot write tensors to /out", new AccessDeniedException("/out/z.npy"));
        });
        int full = Outcome.of("run", ps, false, () -> {
            throw new FileSystemException("/out/z.npy", null, "No space left on device");
        });
        assertThat(denied).isEqualTo(ExitCodes.USAGE);
        assertThat(full).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualToNormalizingNewlines(
                "jpto exec: I/O error: cannot write tensors to /out (/out/z.npy: permission denied)\n"
                        + "jpto run: I/O error: /out/z.npy: No space left on device\n");
    }

    @Test
    void aHeapRingTheHostCannotMapIsRefusedBeforeTheCompile() {
        Result r = jpto("run", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "ring_heap=4194304TiB,0,0,0");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("jpto run: ring_heap for ring 0 cannot be reserved on this host (mmap of "
                + "4194304TiB failed");
        assertOneLineNoTrace(r);
        assertThat(r.out()).doesNotContain("[RUN] compile").doesNotContain("compute golden");
    }

    @Test
    void chipCountsAreBoundedAndTheirDeviceIdsMustFit(@TempDir Path tmp) throws IOException {
        Result overflow = jpto("run", "l3.tiled_matmul", "--preset", "tiny", "--chips", "2", "-d", "2147483647");
        assertThat(overflow.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(overflow.err()).isEqualToIgnoringNewLines("jpto run: --chips 2 -d 2147483647 needs device ids up "
                + "to 2147483648, past the largest device id 2147483647 (give -d 2147483646 or lower)");
        assertThat(overflow.out()).doesNotContain("[RUN] compile");

        Result many = jpto("run", "l3.tiled_matmul", "--preset", "tiny", "--chips", "2000000");
        assertThat(many.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(many.err()).isEqualToIgnoringNewLines("jpto run: --chips must be in 1..64: --chips 2000000 "
                + "(try 2)");
        assertThat(many.out()).isEmpty();

        Result exec = jpto("exec", l3WorkDir.toString(), "--inputs", inputs.toString(), "--outputs",
                tmp.resolve("o").toString(), "--chips", "65");
        assertThat(exec.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(exec.err()).contains("--chips must be in 1..64: --chips 65");

        // the program's own count, from a hand-edited l3.json: refused when the work dir is loaded
        Path wd = copy(l3WorkDir, tmp);
        Path l3json = wd.resolve("l3.json");
        String text = Files.readString(l3json);
        assertThat(text).contains("\"chips\" : 2,");
        Files.writeString(l3json, text.replace("\"chips\" : 2,", "\"chips\" : 2147483647,"));
        Result huge = jpto("exec", wd.toString(), "--inputs", inputs.toString(), "--outputs",
                tmp.resolve("o").toString());
        assertThat(huge.code()).as(huge.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(huge.err()).contains("l3.json").contains("chips must be in 1..64: chips=2147483647");
        assertOneLineNoTrace(huge);
    }
}
