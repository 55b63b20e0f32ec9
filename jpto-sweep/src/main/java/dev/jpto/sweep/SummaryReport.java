package dev.jpto.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The end of a sweep: summary lines on the console and {@code DIR/summary.md}, a case table grouped by program.
 * Every case of the sweep file is listed, whether it ran now or in an earlier, resumed run; its expectation is the
 * file's current one.
 */
final class SummaryReport {
    static final String NAME = "summary.md";

    private SummaryReport() {
    }

    /** @return whether every case has a result and came out as expected */
    static boolean write(Path dir, List<SweepCase> cases, List<JsonNode> results, PrintStream out) {
        Map<String, JsonNode> byId = results.stream()
                .collect(Collectors.toMap(r -> r.get("case_id").asText(), Function.identity(), (a, b) -> a));
        Map<String, List<SweepCase>> byProgram = new LinkedHashMap<>();
        cases.forEach(c -> byProgram.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c));
        StringBuilder md = new StringBuilder("# Sweep summary\n\n");
        List<String> unexpected = new ArrayList<>();
        int missing = 0;
        for (Map.Entry<String, List<SweepCase>> program : byProgram.entrySet()) {
            md.append("## ").append(program.getKey()).append("\n\n")
                    .append("| case | preset | runtime_cfg | platform | seed | status | expected | exit | time (ms) "
                            + "| heap high-water / ring heap |\n")
                    .append("|---|---|---|---|---|---|---|---|---|---|\n");
            for (SweepCase c : program.getValue()) {
                JsonNode r = byId.get(c.id());
                String status = r == null ? "NOT RUN" : r.get("observed").asText();
                if (r == null) {
                    missing++;
                } else if (!status.equals(c.expect())) {
                    unexpected.add(c.label() + ": " + status + " (expected " + c.expect() + ")");
                }
                md.append("| ").append(c.id(), 0, 12).append(" | ").append(c.preset()).append(" | ")
                        .append(c.runtimeCfg().isEmpty() ? "" : c.runtimeCfg().toString()).append(" | ")
                        .append(c.platform()).append(" | ").append(c.seed()).append(" | ").append(status)
                        .append(" | ").append(c.expect()).append(" | ")
                        .append(r == null ? "" : r.get("exit_code").asText()).append(" | ")
                        .append(r == null ? "" : totalMillis(r)).append(" | ").append(r == null ? "" : heap(r))
                        .append(" |\n");
            }
            md.append('\n');
        }
        try {
            AtomicFile.writeString(dir.resolve(NAME), md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(NAME), e);
        }
        int ran = cases.size() - missing;
        out.println("[SWEEP] " + cases.size() + " case(s): " + (ran - unexpected.size()) + " as expected, "
                + unexpected.size() + " unexpected" + (missing == 0 ? "" : ", " + missing + " not run"));
        unexpected.forEach(u -> out.println("[SWEEP] UNEXPECTED " + u));
        out.println("[SWEEP] results: " + dir.resolve(ResultsFile.NAME) + ", summary: " + dir.resolve(NAME));
        return unexpected.isEmpty() && missing == 0;
    }

    private static String totalMillis(JsonNode r) {
        long total = 0;
        for (JsonNode v : r.path("stage_millis")) {
            total += v.asLong();
        }
        return Long.toString(total);
    }

    /** {@code 768 / 1024} per ring that has a heap, comma-separated. */
    private static String heap(JsonNode r) {
        JsonNode max = r.path("heap_high_water");
        JsonNode cap = r.path("heap_capacity");
        List<String> rings = new ArrayList<>();
        for (int i = 0; i < max.size() && i < cap.size(); i++) {
            if (cap.get(i).asLong() > 0) {
                rings.add(max.get(i).asLong() + " / " + cap.get(i).asLong());
            }
        }
        return String.join(", ", rings);
    }
}
