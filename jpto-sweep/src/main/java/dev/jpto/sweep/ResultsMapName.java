package dev.jpto.sweep;

import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The name of the cluster map that holds one sweep's results, kept in {@code DIR/results-map}: a resumed sweep
 * (same --out) finds the results its stopped coordinator never received, while another --out, or a sweep started
 * afresh (no results.jsonl), never sees results of an earlier build.
 */
final class ResultsMapName {
    static final String FILE = "results-map";

    private ResultsMapName() {
    }

    static String of(Path dir, boolean resuming) {
        Path file = dir.resolve(FILE);
        try {
            if (resuming && Files.isRegularFile(file)) {
                String name = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (name.matches(CaseTask.RESULTS_PREFIX + "[0-9a-f-]{36}")) {
                    return name;
                }
            }
            String name = CaseTask.RESULTS_PREFIX + UUID.randomUUID();
            AtomicFile.writeString(file, name + "\n");
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }
}
