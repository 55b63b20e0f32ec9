package dev.jpto.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /** A case whose status changed. */
    public record StatusChange(String caseId, String label, String was, String is) {
    }

    /** A case slower by more than the threshold: by {@code metric} effective_us or time_ms. */
    public record Slower(String caseId, String label, String metric, double was, double is) {
        public double percent() {
            return 100 * (is / was - 1);
        }
    }

    /** What two sweeps' results differ in, and how many results each has and share. */
    public record Findings(int oldResults, int newResults, long both, long onlyOld, long onlyNew,
                           List<StatusChange> changed, List<Slower> slower) {
        /** 0 when no case changed status or regressed, 1 otherwise. */
        public int exitCode() {
            return changed.isEmpty() && slower.isEmpty() ? 0 : 1;
        }
    }

    /**
     * Compares the results in {@code oldRun} with those in {@code newRun} (sweep output directories or their
     * results.jsonl files), printing one line per finding and a closing count.
     *
     * @return 0 when no case changed status or regressed, 1 otherwise
     * @throws SweepFileException when either has no readable results (exit 2)
     */
    public int compare(Path oldRun, Path newRun) {
        Findings f = findings(oldRun, newRun);
        out.println("[COMPARE] OLD " + oldRun + ": " + f.oldResults() + " result(s); NEW " + newRun + ": "
                + f.newResults() + " result(s); " + f.both() + " case(s) in both");
        f.changed().forEach(c -> out.println("[COMPARE] STATUS " + c.label() + ": " + c.was() + " -> " + c.is()));
        f.slower().forEach(s -> out.println(String.format(Locale.ROOT, "[COMPARE] SLOWER %s: %s %.1f -> %.1f "
                + "(+%.0f%%)", s.label(), s.metric(), s.was(), s.is(), s.percent())));
        if (f.onlyOld() + f.onlyNew() > 0) {
            out.println("[COMPARE] not compared: " + f.onlyOld() + " case(s) only in OLD, " + f.onlyNew()
                    + " only in NEW");
        }
        out.println(String.format(Locale.ROOT, "[COMPARE] %d status change(s), %d slower by more than %s%%",
                f.changed().size(), f.slower().size(), new java.math.BigDecimal(Double.toString(thresholdPct))
                        .stripTrailingZeros().toPlainString()));
        return f.exitCode();
    }

    /**
     * The findings of {@link #compare}, printing nothing.
     *
     * @throws SweepFileException when either has no readable results (exit 2)
     */
    public Findings findings(Path oldRun, Path newRun) {
        Map<String, JsonNode> before = read("OLD", oldRun);
        Map<String, JsonNode> after = read("NEW", newRun);
        long both = after.keySet().stream().filter(before::containsKey).count();
        List<StatusChange> changed = new ArrayList<>();
        List<Slower> slower = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : after.entrySet()) {
            JsonNode o = before.get(e.getKey());
            JsonNode n = e.getValue();
            if (o == null) {
                continue;
            }
            String was = o.path("observed").asText();
            String is = n.path("observed").asText();
            if (!was.equals(is)) {
                changed.add(new StatusChange(e.getKey(), label(n), was, is));
                continue;
            }
            boolean bench = o.path("effective_us").asDouble(-1) >= 0 && n.path("effective_us").asDouble(-1) >= 0;
            double t0 = bench ? o.path("effective_us").asDouble() : Double.parseDouble(SummaryReport.totalMillis(o));
            double t1 = bench ? n.path("effective_us").asDouble() : Double.parseDouble(SummaryReport.totalMillis(n));
            boolean resolved = bench || t1 - t0 > 1;
            if (resolved && t0 > 0 && t1 > t0 * (1 + thresholdPct / 100)) {
                slower.add(new Slower(e.getKey(), label(n), bench ? "effective_us" : "time_ms", t0, t1));
            }
        }
        long onlyOld = before.keySet().stream().filter(k -> !after.containsKey(k)).count();
        return new Findings(before.size(), after.size(), both, onlyOld, after.size() - both, List.copyOf(changed),
                List.copyOf(slower));
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
