package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The documented work dir (docs/workdir-format.md): what jpto compile writes matches the JSON Schemas in
 * docs/schema; a work dir written by the Python example runs under jpto exec --golden; malformed files give the
 * documented messages; exec's --golden, --compare and --bench.
 */
@Timeout(300)
class WorkDirFormatTest {
    private static final Path DOCS = Path.of("..", "docs");
    private static final Path PYTHON_EXAMPLE = Path.of("..", "examples", "python", "layernorm.py");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private final CliSession cli = new CliSession();

    private static Schema schema(String file) throws IOException {
        try (InputStream in = Files.newInputStream(DOCS.resolve("schema").resolve(file))) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    private static List<String> errors(Schema schema, JsonNode json) {
        return schema.validate(json).stream().map(Error::toString).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic.vector_add", "basic.matmul", "basic.flash_attention", "basic.softmax",
        "basic.rmsnorm", "dsv4.prefill_attention_swa", "dsv4.moe", "l3.tiled_matmul"})
    void whatCompileWritesMatchesTheSchemas(String program) throws IOException {
        Path wd = tmp.resolve("wd");
        assertThat(cli.run("compile", program, "--preset", "tiny", "-o", wd.toString())).as(cli.err()).isZero();
        Schema manifest = schema("manifest.schema.json");
        Schema orchestration = schema("orchestration.schema.json");
        List<Path> manifests;
        try (Stream<Path> s = Files.walk(wd)) {
            manifests = s.filter(p -> p.getFileName().toString().equals("manifest.json")).toList();
        }
        assertThat(manifests).isNotEmpty();
        for (Path m : manifests) {
            assertThat(errors(manifest, JSON.readTree(m.toFile()))).as(m.toString()).isEmpty();
            Path orch = m.resolveSibling("orchestration.json");
            assertThat(errors(orchestration, JSON.readTree(orch.toFile()))).as(orch.toString()).isEmpty();
        }
    }

    @Test
    void theSchemasRefuseWhatTheLoaderRefuses() throws IOException {
        Path wd = tmp.resolve("wd");
        assertThat(cli.run("compile", "basic.vector_add", "--preset", "tiny", "-o", wd.toString())).isZero();
        ObjectNode m = (ObjectNode) JSON.readTree(wd.resolve("manifest.json").toFile());
        m.put("compile_option", "typo");
        assertThat(errors(schema("manifest.schema.json"), m)).isNotEmpty();
        ObjectNode bad = (ObjectNode) JSON.readTree(wd.resolve("manifest.json").toFile());
        ((ObjectNode) bad.get("inputs").get(0)).put("name", "../x");
        assertThat(errors(schema("manifest.schema.json"), bad)).isNotEmpty();
        ObjectNode orch = (ObjectNode) JSON.readTree(wd.resolve("orchestration.json").toFile());
        ((ObjectNode) orch.get("body").get(0)).put("step", 0);
        assertThat(errors(schema("orchestration.schema.json"), orch)).isNotEmpty();
    }

    /** Writes the Python example's layer norm work dir, inputs and golden under {@code dir}. */
    private void pythonLayerNorm(Path dir) throws Exception {
        Process p = new ProcessBuilder("python3", PYTHON_EXAMPLE.toAbsolutePath().toString(), dir.toString())
                .directory(PYTHON_EXAMPLE.getParent().toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
    }

    private static boolean numpyAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void thePythonLayerNormRunsUnderExecAgainstItsNumpyGolden() throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy");
        Path dir = tmp.resolve("ln");
        pythonLayerNorm(dir);
        Path wd = dir.resolve("workdir");
        assertThat(errors(schema("manifest.schema.json"), JSON.readTree(wd.resolve("manifest.json").toFile())))
                .isEmpty();
        assertThat(errors(schema("orchestration.schema.json"),
                JSON.readTree(wd.resolve("orchestration.json").toFile()))).isEmpty();
        String[] exec = {"exec", wd.toString(), "--inputs", dir.resolve("inputs").toString(), "--outputs",
            dir.resolve("outputs").toString(), "--golden", dir.resolve("golden").toString(), "--compare",
            "y=allclose(1e-4, 1e-5)"};
        assertThat(cli.run(exec)).as(cli.err()).isZero();
        assertThat(cli.out()).contains("'y' PASS shape=[128, 256] dtype=fp32 (allclose(rtol=1.0E-4, atol=1.0E-5)")
                .contains("[RUN] PASS");

        // numpy's default tolerances are tighter than fp32 row sums: the default comparator can fail, and says so
        assertThat(cli.run("exec", wd.toString(), "--inputs", dir.resolve("inputs").toString(), "--outputs",
                dir.resolve("outputs").toString(), "--golden", dir.resolve("golden").toString(), "--compare",
                "y=exact")).isEqualTo(ExitCodes.VALIDATION_FAIL);
        assertThat(cli.out()).contains("'y' FAIL").contains("[RUN] FAIL").contains("1 of 1 output(s) mismatched: 'y'");
    }

    @Test
    void execBenchmarksAndRefusesBadComparators() throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy");
        Path dir = tmp.resolve("ln");
        pythonLayerNorm(dir);
        String wd = dir.resolve("workdir").toString();
        String in = dir.resolve("inputs").toString();
        String outDir = dir.resolve("outputs").toString();
        assertThat(cli.run("exec", wd, "--inputs", in, "--outputs", outDir, "--bench", "2")).as(cli.err()).isZero();
        assertThat(cli.out()).contains("effective_us (2 rounds)");
        assertThat(cli.run("exec", wd, "--inputs", in, "--outputs", outDir, "--golden", dir.resolve("golden").toString(),
                "--compare", "z=exact")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("'z' is not an output of this work dir; outputs: y");
        assertThat(cli.run("exec", wd, "--inputs", in, "--outputs", outDir, "--golden", dir.resolve("golden").toString(),
                "--compare", "y=closeish(1)")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("comparator 'closeish(1)' is not one of allclose(RTOL, ATOL)");
        assertThat(cli.run("exec", wd, "--inputs", in, "--outputs", outDir, "--compare", "y=exact"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("give --golden DIR too");
        assertThat(cli.run("exec", wd, "--inputs", in, "--outputs", outDir, "--golden", tmp.resolve("none").toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("y.npy");
    }

    @Test
    void malformedFilesGiveTheDocumentedMessages() throws Exception {
        Path wd = tmp.resolve("wd");
        assertThat(cli.run("compile", "basic.vector_add", "--preset", "tiny", "-o", wd.toString())).isZero();
        Path in = tmp.resolve("in");
        String[] exec = {"exec", wd.toString(), "--inputs", in.toString(), "--outputs", tmp.resolve("o").toString()};

        String manifest = Files.readString(wd.resolve("manifest.json"));
        Files.writeString(wd.resolve("manifest.json"), manifest.replace("\"program\"", "\"program\" 1,"));
        assertThat(cli.run(exec)).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("manifest.json: is not valid JSON at line ").contains(", column ")
                .doesNotContain("\tat ");
        Files.writeString(wd.resolve("manifest.json"), manifest.replace("\"fp32\"", "\"fp33\""));
        assertThat(cli.run(exec)).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("manifest.json").contains("at $.inputs[0].dtype").contains("fp33");
        Files.writeString(wd.resolve("manifest.json"), manifest);

        String orch = Files.readString(wd.resolve("orchestration.json"));
        Files.writeString(wd.resolve("orchestration.json"), orch.replace("\"step\" : 1", "\"step\" : 0"));
        assertThat(cli.run(exec)).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("orchestration.json").contains("$.body[0].step").contains("must be positive");
        Files.writeString(wd.resolve("orchestration.json"), orch);

        Path kernel = wd.resolve("kernels/add_tile.pto");
        String text = Files.readString(kernel);
        Files.writeString(kernel, text.replace("add a, a, b", "add a, a,"));
        assertThat(cli.run(exec)).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("add_tile.pto: is not a valid kernel in the ISA text format").containsPattern(
                "line \\d+:\\d+|\\d+:\\d+");
    }
}
