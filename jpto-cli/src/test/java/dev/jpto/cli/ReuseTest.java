package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.npy.Npy;
import dev.jpto.lib.registry.ProgramSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpto run --reuse DIR}: a run on the inputs and golden an earlier {@code --save-tensors} run saved, and
 * each refusal of saved tensors that do not fit the run (exit 2, naming the tensor and both values).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReuseTest {
    private static final String MATMUL_A = "fp32[128, 128]";

    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    @TempDir
    Path tmp;

    private int jpto(String... args) {
        outBuf.reset();
        errBuf.reset();
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), args);
    }

    private String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8).strip();
    }

    /** basic.matmul tiny saved with seed 7: inputs a, b and golden c. */
    private Path savedMatmul() {
        Path saved = tmp.resolve("saved");
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--seed", "7", "--output-dir", saved.toString(),
                "--save-tensors")).as(err()).isZero();
        return saved;
    }

    private int reuseMatmul(Path saved, String preset, String seed) {
        return jpto("run", "basic.matmul", "--preset", preset, "--seed", seed, "--reuse", saved.toString());
    }

    @Test
    void aReusedRunTakesTheSavedTensorsAndReproducesTheOutputBits() throws IOException {
        // dsv4 SWA's second prefill chunk updates kv_cache in place, starting from the first chunk's rows: its
        // non-zero initial value is saved under inputs/ and taken from there
        String program = "dsv4.prefill_attention_swa";
        String preset = "tiny_chunk2";
        Path saved = tmp.resolve("saved");
        assertThat(jpto("run", program, "--preset", preset, "--output-dir", saved.toString(), "--save-tensors"))
                .as(err()).isZero();
        ProgramSpec spec = Programs.registry().get(program).spec(preset);
        assertThat(spec.outputFills()).containsKey("kv_cache");
        try (Arena arena = Arena.ofConfined()) {
            Tensor kv = Npy.read(saved.resolve("inputs/kv_cache.npy"), arena);
            assertThat(LongStream.range(0, kv.numel()).filter(i -> kv.getDouble(i) != 0).count())
                    .as("non-zero elements of the initial kv_cache").isPositive();
        }
        assertThat(Files.readString(saved.resolve("meta.json"))).contains("\"name\" : \"kv_cache\"");

        Path again = tmp.resolve("again");
        assertThat(jpto("run", program, "--preset", preset, "--reuse", saved.toString(), "--output-dir",
                again.toString(), "--save-tensors")).as(err()).isZero();
        assertThat(out()).contains("inputs from " + saved + " (reused)", "golden from " + saved + " (reused)",
                "SHA-256 checked before the first stage in ")
                .doesNotContain("generate inputs", "compute golden");
        for (var d : spec.outputs()) {
            String f = d.name() + ".npy";
            assertThat(Files.mismatch(saved.resolve("outputs").resolve(f), again.resolve("outputs").resolve(f)))
                    .as(d.name()).isEqualTo(-1L);
        }
        // the reused run saves the same tensors again, so its meta.json records the same files
        assertThat(Files.readString(again.resolve("meta.json")))
                .isEqualTo(Files.readString(saved.resolve("meta.json")));

        // exec: the saved initial value of kv_cache is needed; without it exec refuses unless told to use zeros
        Path inputs = tmp.resolve("inputs_without_kv_cache");
        Files.createDirectories(inputs);
        try (var files = Files.list(saved.resolve("inputs"))) {
            for (Path f : files.filter(f -> !f.getFileName().toString().equals("kv_cache.npy")).toList()) {
                Files.copy(f, inputs.resolve(f.getFileName()));
            }
        }
        String work = saved.resolve("work_dir").toString();
        assertThat(jpto("exec", work, "--inputs", inputs.toString(), "--outputs", tmp.resolve("o1").toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("missing input file " + inputs.resolve("kv_cache.npy"),
                "the program updates this output in place", "--zero-missing-inout");
        assertThat(jpto("exec", work, "--inputs", inputs.toString(), "--outputs", tmp.resolve("o2").toString(),
                "--zero-missing-inout")).as(err()).isZero();
        assertThat(out()).contains("[RUN] kv_cache starts from zeros: " + inputs.resolve("kv_cache.npy")
                + " is missing and --zero-missing-inout was given");
        // the initial value matters: from zeros, the attention output differs from run's
        assertThat(Files.mismatch(saved.resolve("outputs/x_out.npy"), tmp.resolve("o2/x_out.npy"))).isNotEqualTo(-1L);
        // with the saved initial value: exec reproduces run's outputs bit for bit
        assertThat(jpto("exec", work, "--inputs", saved.resolve("inputs").toString(), "--outputs",
                tmp.resolve("o3").toString())).as(err()).isZero();
        for (var d : spec.outputs()) {
            String f = d.name() + ".npy";
            assertThat(Files.mismatch(saved.resolve("outputs").resolve(f), tmp.resolve("o3").resolve(f)))
                    .as(d.name()).isEqualTo(-1L);
        }
    }

    @Test
    void metaJsonRecordsEachTensorsDeclarationSizeAndSha256() throws Exception {
        Path saved = savedMatmul();
        String meta = Files.readString(saved.resolve("meta.json"));
        Path a = saved.resolve("inputs/a.npy");
        assertThat(meta).contains("\"program\" : \"basic.matmul\"", "\"preset\" : \"tiny\"", "\"seed\" : 7",
                "\"dtype\" : \"fp32\"", "\"shape\" : [ 128, 128 ]", "\"bytes\" : " + Files.size(a),
                "\"sha256\" : \"" + sha256(a) + "\"", "\"sha256\" : \"" + sha256(saved.resolve("golden/c.npy")) + "\"");
    }

    @Test
    void anotherProgramIsRefused() {
        Path saved = savedMatmul();
        assertThat(jpto("run", "basic.vector_add", "--preset", "tiny", "--seed", "7", "--reuse", saved.toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto run: --reuse: " + saved.resolve("meta.json")
                + ": the tensors were saved with program 'basic.matmul', this run has program 'basic.vector_add'");
        assertThat(out()).doesNotContain("[RUN] compile");
    }

    @Test
    void anotherPresetIsRefused() {
        Path saved = savedMatmul();
        assertThat(reuseMatmul(saved, "tiny_bf16", "7")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("the tensors were saved with preset 'tiny', this run has preset 'tiny_bf16'");
    }

    @Test
    void anotherSeedIsRefused() {
        Path saved = savedMatmul();
        assertThat(reuseMatmul(saved, "tiny", "0")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("the tensors were saved with seed '7', this run has seed '0'")
                .contains("nothing is regenerated");
    }

    @Test
    void aChangedInputSpecIsRefused() throws IOException {
        Path saved = savedMatmul();
        // as if the program's input 'a' had been declared [128, 64] when the tensors were saved
        Path meta = saved.resolve("meta.json");
        String text = Files.readString(meta);
        Files.writeString(meta, text.replaceFirst("\"shape\" : \\[ 128, 128 \\]", "\"shape\" : [ 128, 64 ]"));
        assertThat(reuseMatmul(saved, "tiny", "7")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("input 'a': saved as fp32[128, 64], this program declares " + MATMUL_A);
    }

    @Test
    void aMissingFileIsRefused() throws IOException {
        Path saved = savedMatmul();
        Path b = saved.resolve("inputs/b.npy");
        long size = Files.size(b);
        Files.delete(b);
        assertThat(reuseMatmul(saved, "tiny", "7")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("input 'b': file " + b + " is missing (" + saved.resolve("meta.json")
                + " records " + size + " bytes)");
    }

    @Test
    void aTruncatedFileIsRefused() throws IOException {
        Path saved = savedMatmul();
        Path c = saved.resolve("golden/c.npy");
        long size = Files.size(c);
        try (FileChannel ch = FileChannel.open(c, StandardOpenOption.WRITE)) {
            ch.truncate(size - 100);
        }
        assertThat(reuseMatmul(saved, "tiny", "7")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("golden 'c': file " + c + " has " + (size - 100) + " bytes, meta.json records "
                + size + " (truncated)");
    }

    @Test
    void aChangedContentIsRefusedByItsHash() throws Exception {
        Path saved = savedMatmul();
        Path a = saved.resolve("inputs/a.npy");
        String before = sha256(a);
        byte[] bytes = Files.readAllBytes(a);
        bytes[bytes.length - 1] ^= 1; // one bit of the last element: same size, same header
        Files.write(a, bytes);
        assertThat(reuseMatmul(saved, "tiny", "7")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("input 'a': file " + a + " has SHA-256 " + sha256(a) + ", meta.json records "
                + before + " (changed since it was saved)");
    }

    @Test
    void aDirectoryWithoutMetaJsonIsRefused() throws IOException {
        Path saved = savedMatmul();
        Files.delete(saved.resolve("meta.json"));
        assertThat(reuseMatmul(saved, "tiny", "7")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto run: --reuse " + saved + ": " + saved.resolve("meta.json")
                + " is missing: expected a directory written by 'jpto run --save-tensors");
    }

    @Test
    void reusingTheOutputDirItselfIsRefused() {
        Path saved = savedMatmul();
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--seed", "7", "--reuse", saved.toString(),
                "--output-dir", saved.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("--reuse " + saved + " is the output dir: the run would replace the tensors it "
                + "reads");
        assertThat(saved.resolve("inputs/a.npy")).isRegularFile();
    }

    @Test
    void execOnASavedDirectoryPassesAgainstItsGolden() throws IOException {
        Path saved = savedMatmul();
        Path outs = tmp.resolve("exec_out");
        assertThat(jpto("exec", saved.resolve("work_dir").toString(), "--inputs", saved.resolve("inputs").toString(),
                "--outputs", outs.toString(), "--golden", saved.resolve("golden").toString(), "--bench", "2",
                "--compare", "c=allclose(1e-4, 1e-4)")) // the program's comparator, as run validates c
                .as(err()).isZero();
        assertThat(out()).contains("'c' PASS shape=[128, 128] dtype=fp32", "effective_us (2 rounds)", "[RUN] PASS");
        assertThat(Files.mismatch(outs.resolve("c.npy"), saved.resolve("outputs/c.npy"))).isEqualTo(-1L);
    }

    private static String sha256(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }
}
