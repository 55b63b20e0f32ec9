package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.jpto.runtime.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/schema/sweep.schema.json against the files jpto reads: the example passes, what the reader refuses fails. */
class SweepSchemaTest {
    private static final Path ROOT = Path.of("..");
    private static final Path EXAMPLE = ROOT.resolve("examples").resolve("sweep-tiny.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static Schema schema() throws IOException {
        try (InputStream in = Files.newInputStream(ROOT.resolve("docs/schema/sweep.schema.json"))) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    private static List<String> errors(String yaml) throws IOException {
        return schema().validate(YAML.readTree(yaml)).stream().map(Error::toString).toList();
    }

    @Test
    void theExampleIsValidAndReadsAsFourCases(@TempDir Path tmp) throws IOException {
        JsonNode example = YAML.readTree(EXAMPLE.toFile());
        assertThat(schema().validate(example)).isEmpty();
        assertThat(SweepFile.read(EXAMPLE, Map.of("JPTO_CACHE_DIR", tmp.toString()))).hasSize(4)
                .filteredOn(c -> c.expect().equals("HEAP_RING_DEADLOCK")).hasSize(1);
    }

    @Test
    void whatTheReaderRefusesTheSchemaRefusesToo() throws IOException {
        assertThat(errors("programs: [basic.matmul]\nrepeats: 3\n")).singleElement().asString().contains("repeats");
        assertThat(errors("presets: [tiny]\n")).singleElement().asString().contains("programs");
        assertThat(errors("programs: [basic.matmul]\nexpect:\n  seed=0: DEADLOCK\n")).isNotEmpty();
        assertThat(errors("programs: [basic.matmul]\nexpect:\n  seed: PASS\n")).isNotEmpty();
        assertThat(errors("programs: [basic.matmul]\nbench: -1\n")).isNotEmpty();
    }

    @Test
    void theSchemasOutcomesAreTheReadersOutcomes() throws IOException {
        JsonNode outcomes = new ObjectMapper().readTree(ROOT.resolve("docs/schema/sweep.schema.json").toFile())
                .at("/properties/expect/additionalProperties/enum");
        List<String> reader = Stream.concat(SweepFile.PLAIN_OUTCOMES.stream(), Arrays.stream(ErrorCode.values())
                .filter(c -> c != ErrorCode.NONE).map(Enum::name)).toList();
        assertThat(outcomes.valueStream().map(JsonNode::asText).toList()).isEqualTo(reader);
    }
}
