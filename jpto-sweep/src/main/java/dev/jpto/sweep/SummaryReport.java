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
 * The end of a sweep: summary lines on the console, {@code DIR/summary.md} and {@code DIR/summary.html} (one file,
 * no scripts or links to fetch), a case table grouped by program. Every case of the sweep file is listed, whether
 * it ran now or in an earlier, resumed run; its expectation is the file's current one.
 */
final class SummaryReport {
    static final String NAME = "summary.md";
    static final String HTML = "summary.html";
    private static final List<String> COLUMNS = List.of("case", "preset", "runtime_cfg", "platform", "seed",
            "status", "expected", "exit", "time (ms)", "device (µs)", "heap high-water / ring heap");

    private SummaryReport() {
    }

    /** One case of the table: its definition and its result, null when it has none yet. */
    private record Row(SweepCase c, JsonNode r) {
        String status() {
            return r == null ? "NOT RUN" : r.get("observed").asText();
        }

        boolean asExpected() {
            return status().equals(c.expect());
        }

        List<String> cells() {
            return List.of(c.id().substring(0, 12), c.preset(), c.runtimeCfg().isEmpty() ? ""
                    : c.runtimeCfg().toString(), c.platform(), Long.toString(c.seed()), status(), c.expect(),
                    r == null ? "" : r.get("exit_code").asText(), r == null ? "" : totalMillis(r),
                    r == null ? "" : deviceMicros(r), r == null ? "" : heap(r));
        }
    }

    /** @return whether every case has a result and came out as expected */
    static boolean write(Path dir, List<SweepCase> cases, List<JsonNode> results, PrintStream out) {
        Map<String, JsonNode> byId = results.stream()
                .collect(Collectors.toMap(r -> r.get("case_id").asText(), Function.identity(), (a, b) -> a));
        Map<String, List<Row>> byProgram = new LinkedHashMap<>();
        cases.forEach(c -> byProgram.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(new Row(c,
                byId.get(c.id()))));
        List<Row> rows = byProgram.values().stream().flatMap(List::stream).toList();
        List<String> unexpected = rows.stream().filter(r -> r.r() != null && !r.asExpected())
                .map(r -> r.c().label() + ": " + r.status() + " (expected " + r.c().expect() + ")").toList();
        long missing = rows.stream().filter(r -> r.r() == null).count();
        write(dir.resolve(NAME), markdown(byProgram));
        write(dir.resolve(HTML), html(byProgram, cases.size(), unexpected.size(), missing));
        out.println("[SWEEP] " + cases.size() + " case(s): " + (cases.size() - missing - unexpected.size())
                + " as expected, " + unexpected.size() + " unexpected" + (missing == 0 ? "" : ", " + missing
                + " not run"));
        unexpected.forEach(u -> out.println("[SWEEP] UNEXPECTED " + u));
        out.println("[SWEEP] results: " + dir.resolve(ResultsFile.NAME) + ", summary: " + dir.resolve(NAME) + ", "
                + dir.resolve(HTML));
        return unexpected.isEmpty() && missing == 0;
    }

    private static void write(Path file, CharSequence text) {
        try {
            AtomicFile.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String markdown(Map<String, List<Row>> byProgram) {
        StringBuilder md = new StringBuilder("# Sweep summary\n\n");
        byProgram.forEach((program, rows) -> {
            md.append("## ").append(program).append("\n\n| ").append(String.join(" | ", COLUMNS)).append(" |\n|")
                    .append("---|".repeat(COLUMNS.size())).append('\n');
            rows.forEach(r -> md.append("| ").append(String.join(" | ", r.cells())).append(" |\n"));
            md.append('\n');
        });
        return md.toString();
    }

    private static String html(Map<String, List<Row>> byProgram, int cases, int unexpected, long missing) {
        StringBuilder h = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Sweep summary</title>
                <style>
                body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin-bottom:1.5em}
                th,td{border:1px solid #bbb;padding:2px 8px;text-align:left;font-size:90%}th{background:#eee}
                td.num{text-align:right}tr.ok td.status{background:#dfd}tr.bad td.status{background:#fcc}
                tr.missing td.status{background:#eee}code{font-size:95%}
                </style></head><body>
                <h1>Sweep summary</h1>
                """);
        h.append("<p>").append(cases).append(" case(s): ").append(cases - missing - unexpected)
                .append(" as expected, ").append(unexpected).append(" unexpected, ").append(missing)
                .append(" not run.</p>\n");
        byProgram.forEach((program, rows) -> {
            h.append("<h2>").append(escape(program)).append("</h2>\n<table>\n<tr>");
            COLUMNS.forEach(c -> h.append("<th>").append(escape(c)).append("</th>"));
            h.append("</tr>\n");
            for (Row r : rows) {
                h.append("<tr class=\"").append(r.r() == null ? "missing" : r.asExpected() ? "ok" : "bad")
                        .append("\">");
                List<String> cells = r.cells();
                for (int i = 0; i < cells.size(); i++) {
                    String cls = COLUMNS.get(i).equals("status") ? " class=\"status\""
                            : i == 4 || i == 7 || i == 8 || i == 9 ? " class=\"num\"" : "";
                    String text = escape(cells.get(i));
                    h.append("<td").append(cls).append('>').append(i == 0 ? "<code>" + text + "</code>" : text)
                            .append("</td>");
                }
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        });
        return h.append("</body></html>\n").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String totalMillis(JsonNode r) {
        long total = 0;
        for (JsonNode v : r.path("stage_millis")) {
            total += v.asLong();
        }
        return Long.toString(total);
    }

    /** The estimated device time, one decimal; empty without an estimate (-1, or a result of an older jpto). */
    static String deviceMicros(JsonNode r) {
        double us = r.path("device_us").asDouble(-1);
        return us < 0 ? "" : String.format(java.util.Locale.ROOT, "%.1f", us);
    }

    /** {@code 768 / 1024 (75%)} per ring that has a heap, comma-separated. */
    private static String heap(JsonNode r) {
        JsonNode max = r.path("heap_high_water");
        JsonNode cap = r.path("heap_capacity");
        List<String> rings = new ArrayList<>();
        for (int i = 0; i < max.size() && i < cap.size(); i++) {
            long c = cap.get(i).asLong();
            if (c > 0) {
                rings.add(max.get(i).asLong() + " / " + c + " (" + Math.round(100.0 * max.get(i).asLong() / c)
                        + "%)");
            }
        }
        return String.join(", ", rings);
    }
}
