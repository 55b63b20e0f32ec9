package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.registry.ProgramDef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --json} on list, plan, run and exec (issue 26 §3): one document on stdout that validates against its schema in
 * docs/schema, with the same facts as the human output and the same exit code; failures carry their error.
 */
@Timeout(300)
class JsonOutputTest {
    private static final Path SCHEMAS = Path.of("..", "docs", "schema");
    private static final String SCHEMA_IRI = "https://jpto.dev/schema/";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private final CliSession cli = new CliSession();

    /** stdout as one JSON document, checked against {@code schema}: nothing else may be on stdout. */
    private JsonNode document(String schema) throws IOException {
        JsonNode doc = JSON.readTree(cli.out());
        List<String> errors = schema(schema).validate(doc).stream().map(Error::toString).toList();
        assertThat(errors).as(doc.toPrettyString()).isEmpty();
        return doc;
    }

    /** The schema from docs/schema; its $refs to sibling schemas resolve to the files beside it, never the net. */
    static Schema schema(String file) {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemas(iri -> iri.startsWith(SCHEMA_IRI) ? read(iri.substring(SCHEMA_IRI.length())) : null));
        return registry.getSchema(SchemaLocation.of(SCHEMA_IRI + file));
    }

    private static String read(String file) {
        try {
            return Files.readString(SCHEMAS.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> texts(JsonNode array, String field) {
        return StreamSupport.stream(array.spliterator(), false).map(n -> n.get(field).asText()).toList();
    }

    @Test
    void listJsonHasEveryProgramWithItsPresets() throws IOException {
        assertThat(cli.run("list", "--json")).isZero();
        JsonNode doc = document("list.schema.json");
        assertThat(doc.get("command").asText()).isEqualTo("list");
        assertThat(texts(doc.get("programs"), "name")).isEqualTo(Programs.registry().names());
        ProgramDef matmul = Programs.registry().get("basic.matmul");
        JsonNode m = StreamSupport.stream(doc.get("programs").spliterator(), false)
                .filter(p -> p.get("name").asText().equals("basic.matmul")).findFirst().orElseThrow();
        assertThat(List.of(JSON.convertValue(m.get("presets"), String[].class))).isEqualTo(matmul.presets());
        assertThat(m.get("default_preset").asText()).isEqualTo(matmul.defaultPreset());
        assertThat(m.get("origin").asText()).isEqualTo("built-in");
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void planJsonSaysEnoughOrNotWithTheSameExitCodeAsTheTable() throws IOException {
        assertThat(cli.run("plan", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB", "--json"))
                .isEqualTo(ExitCodes.VALIDATION_FAIL);
        JsonNode doc = document("plan.schema.json");
        assertThat(doc.get("enough").asBoolean()).isFalse();
        assertThat(doc.get("advice").asText()).contains("needs ring_heap 1MiB on ring 0 (in force 64KiB)");
        assertThat(doc.get("user_runtime_cfg").get("ring_heap").asText()).isEqualTo("64KiB");
        // ring 0 of basic.matmul tiny: 12 tasks all live, 128 KiB of split-K partials (JptoCliTest's table)
        JsonNode ring0 = doc.get("chip_programs").get(0).get("rings").get(0);
        assertThat(ring0.get("tasks").asLong()).isEqualTo(12);
        assertThat(ring0.get("live_tasks").asLong()).isEqualTo(12);
        assertThat(ring0.get("heap_bytes_needed").asLong()).isEqualTo(128 * 1024);
        assertThat(doc.get("recommended_runtime_cfg").get("ring_heap").asText()).isEqualTo("1MiB");

        assertThat(cli.run("plan", "basic.matmul", "--preset", "tiny", "--measure", "--json")).isZero();
        doc = document("plan.schema.json");
        assertThat(doc.get("enough").asBoolean()).isTrue();
        assertThat(doc.get("advice").isNull()).isTrue();
        JsonNode measured = doc.get("measured").get(0);
        assertThat(measured.get("tasks").asLong()).isEqualTo(12);
        assertThat(measured.get("rings").get(0).get("heap_max").asLong()).isEqualTo(128 * 1024);
    }

    @Test
    void runJsonHasStagesOutputsAndTheRuntimeCfgWithItsSources() throws IOException {
        assertThat(cli.run("run", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "ring_heap=2MiB", "--json"))
                .as(cli.err()).isZero();
        JsonNode doc = document("run.schema.json");
        assertThat(doc.get("passed").asBoolean()).isTrue();
        assertThat(doc.get("program").asText()).isEqualTo("basic.vector_add");
        assertThat(doc.get("preset").asText()).isEqualTo("tiny");
        assertThat(doc.get("platform").asText()).isEqualTo("a2a3sim");
        assertThat(texts(doc.get("stages"), "name")).containsExactly("compile", "generate inputs", "compute golden",
                "runtime", "validate");
        JsonNode z = doc.get("outputs").get(0);
        assertThat(z.get("name").asText()).isEqualTo("z");
        assertThat(z.get("verdict").asText()).isEqualTo("PASS");
        assertThat(z.get("shape").toString()).isEqualTo("[128,256]");
        assertThat(z.get("mismatch_count").asLong()).isZero();
        assertThat(doc.get("runtime_cfg").get("ring_heap").toString())
                .isEqualTo("{\"value\":\"2097152\",\"source\":\"user\"}"); // RunConfig's own text: bytes
        assertThat(doc.get("runtime_cfg").get("enable_pmu").get("source").asText()).isEqualTo("default");
        assertThat(doc.get("report").get("rings").get(0).get("heap_bytes").asLong()).isEqualTo(2L << 20);
        assertThat(doc.has("error")).isFalse();
        assertThat(doc.get("work_dir").isNull()).isTrue();
    }

    @Test
    void aProgramsDefaultRuntimeCfgIsMarkedAsTheProgramsOwn() throws IOException {
        ProgramDef def = Programs.registry().get("dsv4.moe");
        String key = def.spec("tiny").runtimeCfg().keySet().iterator().next();
        assertThat(cli.run("run", "dsv4.moe", "--preset", "tiny", "--json")).as(cli.err()).isZero();
        JsonNode doc = document("run.schema.json");
        assertThat(doc.get("runtime_cfg").get(key).get("source").asText()).isEqualTo("program");
    }

    @Test
    void aRingDeadlockIsARunJsonWithTheChipsErrorCodeAndExitThree() throws IOException {
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB", "--json"))
                .isEqualTo(ExitCodes.RUNTIME);
        JsonNode doc = document("run.schema.json");
        assertThat(doc.get("passed").asBoolean()).isFalse();
        JsonNode error = doc.get("error");
        assertThat(error.get("exit_code").asInt()).isEqualTo(3);
        assertThat(error.get("code").asText()).isEqualTo("HEAP_RING_DEADLOCK");
        assertThat(error.get("code_number").asInt()).isEqualTo(2);
        assertThat(error.get("message").asText()).startsWith("jpto run: runtime error: orch_error_code=2 "
                + "HEAP_RING_DEADLOCK");
        assertThat(cli.err().strip()).isEqualTo(error.get("message").asText()); // stderr keeps its one line
        assertThat(doc.get("program").asText()).isEqualTo("basic.matmul");
    }

    @Test
    void aBadRuntimeCfgKeyIsAUsageErrorDocument() throws IOException {
        assertThat(cli.run("run", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "ring_hep=1MiB", "--json"))
                .isEqualTo(ExitCodes.USAGE);
        JsonNode doc = document("run.schema.json");
        assertThat(doc.get("error").get("exit_code").asInt()).isEqualTo(2);
        assertThat(doc.get("error").get("code").isNull()).isTrue();
        assertThat(doc.get("error").get("message").asText()).contains("unknown run config key 'ring_hep'")
                .endsWith("did you mean 'ring_heap'?");
    }

    @Test
    void aFailedOutputIsAFailVerdictWithItsMismatches() throws IOException {
        // jpto new's starter with a golden that disagrees with the kernel (alpha 3 in the reference only)
        Path dir = tmp.resolve("axpy");
        assertThat(cli.run("new", "axpy", "--dir", dir.toString())).as(cli.err()).isZero();
        Path src = dir.resolve("Axpy.java");
        Files.writeString(src, Files.readString(src).replace("z.setDouble(i, (float) (ALPHA * x",
                "z.setDouble(i, (float) (3 * x"));
        assertThat(cli.run("run", src.toString(), "--json")).as(cli.err()).isEqualTo(ExitCodes.VALIDATION_FAIL);
        JsonNode doc = document("run.schema.json");
        assertThat(doc.get("passed").asBoolean()).isFalse();
        assertThat(doc.has("error")).isFalse();
        JsonNode out = doc.get("outputs").get(0);
        assertThat(out.get("verdict").asText()).isEqualTo("FAIL");
        assertThat(out.get("mismatch_count").asLong()).isPositive();
        assertThat(out.get("first_mismatches").size()).isPositive();
    }

    @Test
    void execJsonHasTheReportTheFilesWrittenAndTheVerdicts() throws IOException {
        Path dir = tmp.resolve("saved");
        assertThat(cli.run("run", "basic.vector_add", "--preset", "tiny", "--output-dir", dir.toString(),
                "--save-tensors")).as(cli.err()).isZero();
        Path outDir = tmp.resolve("out");
        assertThat(cli.run("exec", dir.resolve("work_dir").toString(), "--inputs", dir.resolve("inputs").toString(),
                "--outputs", outDir.toString(), "--golden", dir.resolve("golden").toString(), "--bench", "2",
                "--compare", "z=exact", "--json")).as(cli.err()).isZero();
        JsonNode doc = document("exec.schema.json");
        assertThat(doc.get("passed").asBoolean()).isTrue();
        assertThat(doc.get("report").get("tasks").asLong()).isEqualTo(4); // as run's report for vector_add tiny
        assertThat(doc.get("written").get(0).get("path").asText()).isEqualTo(outDir.resolve("z.npy").toString());
        assertThat(outDir.resolve("z.npy")).isRegularFile();
        assertThat(doc.get("benchmark").get("rounds").asInt()).isEqualTo(2);
        JsonNode z = doc.get("outputs").get(0);
        assertThat(z.get("verdict").asText()).isEqualTo("PASS");
        assertThat(z.get("description").asText()).startsWith("allclose(rtol=0.0, atol=0.0)"); // z=exact, not numpy's
        assertThat(doc.get("runtime_cfg").get("platform").get("source").asText()).isEqualTo("flag");

        assertThat(cli.run("exec", dir.resolve("work_dir").toString(), "--inputs", dir.resolve("inputs").toString(),
                "--outputs", outDir.toString(), "--runtime-cfg", "ring_hep=1MiB", "--json"))
                .isEqualTo(ExitCodes.USAGE);
        doc = document("exec.schema.json");
        assertThat(doc.get("error").get("message").asText()).startsWith("jpto exec: ")
                .contains("unknown run config key 'ring_hep'");
        assertThat(doc.get("passed").asBoolean()).isFalse();
    }

    @Test
    void withoutJsonTheHumanLinesAreUnchanged() {
        assertThat(cli.run("list")).isZero();
        assertThat(cli.out()).startsWith("basic.flash_attention  ").doesNotContain("{");
    }

    @Test
    void aSchemaRejectsADocumentThatBreaksIt() throws IOException {
        JsonNode bad = JSON.readTree("{\"command\":\"run\",\"format_version\":1,\"passed\":true}");
        assertThat(schema("run.schema.json").validate(bad)).isNotEmpty();
        JsonNode badList = JSON.readTree("{\"command\":\"list\",\"format_version\":1,\"programs\":[{\"name\":\"x\"}]}");
        assertThat(schema("list.schema.json").validate(badList)).isNotEmpty();
    }
}
