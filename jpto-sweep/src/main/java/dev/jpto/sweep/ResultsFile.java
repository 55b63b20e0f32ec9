package dev.jpto.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code DIR/results.jsonl}: one JSON line per finished case, in the order results arrived. Each append replaces
 * the file through {@link AtomicFile}, so a killed sweep leaves either the old or the new complete file, never a
 * torn line; a sweep re-run with the same DIR reads it back and skips the cases it lists. (Rewriting the whole
 * file per result costs O(results) — negligible next to a case's run for sweeps of thousands of cases.)
 */
final class ResultsFile {
    static final String NAME = "results.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private final Path file;
    private final StringBuilder text = new StringBuilder();
    private final Map<String, JsonNode> byId = new LinkedHashMap<>();

    private ResultsFile(Path file) {
        this.file = file;
    }

    /** The results already in {@code dir} (none when it has no results file). */
    static ResultsFile open(Path dir) {
        ResultsFile r = new ResultsFile(dir.resolve(NAME));
        if (!Files.exists(r.file)) {
            return r;
        }
        try {
            int n = 0;
            for (String line : Files.readAllLines(r.file, StandardCharsets.UTF_8)) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (JsonProcessingException e) {
                    throw new SweepFileException(r.file + ":" + n + ": not a JSON line of a sweep's results ("
                            + e.getOriginalMessage() + "); move the file away to start the sweep afresh");
                }
                if (!node.hasNonNull("case_id")) {
                    throw new SweepFileException(r.file + ":" + n + ": a result without case_id; move the file "
                            + "away to start the sweep afresh");
                }
                r.byId.put(node.get("case_id").asText(), node);
                r.text.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + r.file, e);
        }
        return r;
    }

    boolean has(String caseId) {
        return byId.containsKey(caseId);
    }

    /** Every result recorded, as JSON, in file order. */
    List<JsonNode> all() {
        return new ArrayList<>(byId.values());
    }

    /** Adds {@code result} as one line; a second result for a case already recorded is ignored. */
    void append(CaseResult result) {
        if (has(result.caseId())) {
            return; // exactly one result per case id
        }
        JsonNode node = JSON.valueToTree(result);
        String line;
        try {
            line = JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result always serializes", e);
        }
        text.append(line).append('\n');
        try {
            AtomicFile.writeString(file, text);
        } catch (IOException e) {
            text.setLength(text.length() - line.length() - 1);
            throw new UncheckedIOException("cannot write " + file, e);
        }
        byId.put(result.caseId(), node);
    }
}
