package dev.jpto.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code jpto sweep compare OLD NEW}: the cases of two sweeps (matched by case id) whose status changed, and those
 * that got slower by more than a threshold — the benchmark median when both ran with {@code bench}, else the
 * total stage time (a change of 1 ms or less is below its resolution and never counts).
 *
 * @param out          one line per finding and a closing count
 * @param thresholdPct how much slower (percent) counts as a regression
 */
public record SweepCompare(PrintStream out, double thresholdPct) {
    public SweepCompare {
        if (!(thresholdPct > 0) || Double.isInfinite(thresholdPct)) {
            throw new IllegalArgumentException("--threshold must be a percentage above 0: --threshold "
                    + thresholdPct + " (try 10)");
        }
    }

    /**
     * Compares the results in {@code oldRun} with those in {@code newRun} (sweep output directories or their
     * results.jsonl files).
     *
     * @return 0 when no case changed status or regressed, 1 otherwise
     * @throws SweepFileException when either has no readable results (exit 2)
     */
    public int compare(Path oldRun, Path newRun) {
        Map<String, JsonNode> before = read("OLD", oldRun);
        Map<String, JsonNode> after = read("NEW", newRun);
        long both = after.keySet().stream().filter(before::containsKey).count();
        out.println("[COMPARE] OLD " + oldRun + ": " + before.size() + " result(s); NEW " + newRun + ": "
                + after.size() + " result(s); " + both + " case(s) in both");
        int changed = 0;
        int slower = 0;
        for (Map.Entry<String, JsonNode> e : after.entrySet()) {
            JsonNode o = before.get(e.getKey());
            JsonNode n = e.getValue();
            if (o == null) {
                continue;
            }
            String was = o.path("observed").asText();
            String is = n.path("observed").asText();
            if (!was.equals(is)) {
                changed++;
                out.println("[COMPARE] STATUS " + label(n) + ": " + was + " -> " + is);
                continue;
            }
            boolean bench = o.path("effective_us").asDouble(-1) >= 0 && n.path("effective_us").asDouble(-1) >= 0;
            double t0 = bench ? o.path("effective_us").asDouble() : Double.parseDouble(SummaryReport.totalMillis(o));
            double t1 = bench ? n.path("effective_us").asDouble() : Double.parseDouble(SummaryReport.totalMillis(n));
            boolean resolved = bench || t1 - t0 > 1;
            if (resolved && t0 > 0 && t1 > t0 * (1 + thresholdPct / 100)) {
                slower++;
                out.println(String.format(Locale.ROOT, "[COMPARE] SLOWER %s: %s %.1f -> %.1f (+%.0f%%)", label(n),
                        bench ? "effective_us" : "time_ms", t0, t1, 100 * (t1 / t0 - 1)));
            }
        }
        long onlyOld = before.keySet().stream().filter(k -> !after.containsKey(k)).count();
        long onlyNew = after.size() - both;
        if (onlyOld + onlyNew > 0) {
            out.println("[COMPARE] not compared: " + onlyOld + " case(s) only in OLD, " + onlyNew + " only in NEW");
        }
        out.println(String.format(Locale.ROOT, "[COMPARE] %d status change(s), %d slower by more than %s%%",
                changed, slower, new java.math.BigDecimal(Double.toString(thresholdPct)).stripTrailingZeros()
                        .toPlainString()));
        return changed + slower == 0 ? 0 : 1;
    }

    private static Map<String, JsonNode> read(String which, Path run) {
        if (!Files.exists(run)) {
            throw new SweepFileException(which + " " + run + ": no such file or directory");
        }
        Path dir = Files.isDirectory(run) ? run : run.getParent() == null ? Path.of(".") : run.getParent();
        if (!Files.isDirectory(run) && !run.getFileName().toString().equals(ResultsFile.NAME)) {
            throw new SweepFileException(which + " " + run + ": give a sweep's --out directory or its "
                    + ResultsFile.NAME);
        }
        if (!Files.isRegularFile(dir.resolve(ResultsFile.NAME))) {
            throw new SweepFileException(which + " " + run + ": no " + ResultsFile.NAME + " there; give a sweep's "
                    + "--out directory");
        }
        Map<String, JsonNode> byId = new TreeMap<>();
        for (JsonNode r : ResultsFile.open(dir).all()) {
            byId.put(r.get("case_id").asText(), r);
        }
        return byId;
    }

    private static String label(JsonNode r) {
        Map<String, String> cfg = new TreeMap<>();
        r.path("runtime_cfg").properties().forEach(e -> cfg.put(e.getKey(), e.getValue().asText()));
        return SweepCase.label(r.path("program").asText(), r.path("preset").asText(), cfg,
                r.path("platform").asText(), r.path("seed").asLong());
    }
}
