package dev.jpto.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * One {@code --json} document (schemas in docs/schema/): built from the commands' result records as a Jackson tree,
 * printed as the only thing on stdout. Every document names its command and schema version; a failed command's
 * document has an {@code error} object with the exit code and the line printed on stderr.
 */
final class JsonDocument {
    /** Bumped when a field changes meaning or disappears; adding a field keeps it. */
    static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode root = JSON.createObjectNode();

    JsonDocument(String command) {
        root.put("command", command);
        root.put("format_version", FORMAT_VERSION);
    }

    ObjectNode root() {
        return root;
    }

    /** A new object not yet attached anywhere. */
    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** A new array not yet attached anywhere. */
    static ArrayNode array() {
        return JSON.createArrayNode();
    }

    /** {@code map} as a JSON object of strings, in its own order. */
    static ObjectNode strings(Map<String, String> map) {
        ObjectNode o = object();
        map.forEach(o::put);
        return o;
    }

    /** Records the failure: exit code, the stderr line, and the chip's error code when the chip failed. */
    void failed(Outcome.Failure f) {
        ObjectNode e = root.putObject("error");
        e.put("exit_code", f.exitCode());
        e.put("message", f.line());
        f.chipError().ifPresentOrElse(c -> {
            e.put("code", c.name());
            e.put("code_number", c.code());
        }, () -> {
            e.putNull("code");
            e.putNull("code_number");
        });
    }

    /** Writes the document to {@code file} (atomically: a reader never sees half of it). */
    void write(java.nio.file.Path file) throws java.io.IOException {
        dev.jpto.runtime.io.AtomicFile.writeString(file, JSON.writeValueAsString(root) + "\n");
    }

    void print(PrintStream out) {
        out.println(text());
        out.flush();
    }

    /** The document as printed. */
    String text() {
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
