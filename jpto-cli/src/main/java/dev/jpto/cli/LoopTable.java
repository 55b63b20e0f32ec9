package dev.jpto.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The lines {@code jpto bench loop} prints: one row per stage of the fresh and the reuse run (from their
 * {@code --json} documents), the reuse/fresh ratio, and a note with the target where there is one.
 */
final class LoopTable {
    /** The targets: inputs at >= 1 GB/s, a first runtime stage within 2x the warm median. */
    static final double TARGET_INPUT_BYTES_PER_SECOND = 1e9;
    static final double TARGET_FIRST_OVER_WARM = 2.0;

    private static final String ROW = "%-24s %10s %10s %11s  %s";

    private LoopTable() {
    }

    static List<String> lines(BenchLoopCommand.LoopChild.Result start, BenchLoopCommand.LoopChild.Result fresh,
                              BenchLoopCommand.LoopChild.Result reuse, long inputBytes) {
        JsonNode f = fresh.json();
        JsonNode r = reuse.json();
        List<String> out = new ArrayList<>();
        out.add(row("stage", "fresh", "reuse", "reuse/fresh", "note"));
        out.add(row("JVM start (--version)", seconds(start.wallSeconds()), "", "", "wall of 'jpto --version'"));
        out.add(stage("compile", f, "compile", r, "compile", ""));
        double gen = stage(f, "generate inputs");
        String rate = gen > 0 && inputBytes > 0 ? String.format(Locale.ROOT, "%.1f MB/s over %s (target >= %.0f"
                + " MB/s)", inputBytes / gen / 1e6, size(inputBytes), TARGET_INPUT_BYTES_PER_SECOND / 1e6) : "";
        out.add(stage("inputs (generate|load)", f, "generate inputs", r, "load inputs", rate));
        out.add(stage("golden (compute|load)", f, "compute golden", r, "load golden", ""));
        out.add(stage("runtime (first, cold)", f, "runtime", r, "runtime", ""));
        double fw = warm(f);
        double rw = warm(r);
        out.add(row("warm median", seconds(fw), seconds(rw), ratio(rw, fw), ""));
        double ff = stage(f, "runtime") / fw;
        double rf = stage(r, "runtime") / rw;
        out.add(row("first / warm", times(ff), times(rf), "", String.format(Locale.ROOT, "target <= %.0fx",
                TARGET_FIRST_OVER_WARM)));
        out.add(stage("validate", f, "validate", r, "validate", ""));
        out.add(row("in-JVM total", seconds(total(f)), seconds(total(r)), ratio(total(r), total(f)), ""));
        out.add(row("process wall", seconds(fresh.wallSeconds()), seconds(reuse.wallSeconds()),
                ratio(reuse.wallSeconds(), fresh.wallSeconds()), "from here, JVM start to exit"));
        out.add(row("peak RSS", rss(fresh.peakRssKb()), rss(reuse.peakRssKb()),
                fresh.peakRssKb() > 0 && reuse.peakRssKb() > 0 ? ratio(reuse.peakRssKb(), fresh.peakRssKb()) : "",
                fresh.peakRssKb() < 0 ? "/usr/bin/time not found" : "max resident set (/usr/bin/time)"));
        out.add(row("verdict", verdict(f, fresh.exitCode()), verdict(r, reuse.exitCode()), "", ""));
        return out;
    }

    private static String stage(String label, JsonNode f, String fName, JsonNode r, String rName, String note) {
        double a = stage(f, fName);
        double b = stage(r, rName);
        return row(label, seconds(a), seconds(b), ratio(b, a), note);
    }

    /** A stage's seconds in a run document, or NaN when the run has no such stage (or no document). */
    static double stage(JsonNode doc, String name) {
        if (doc == null) {
            return Double.NaN;
        }
        for (JsonNode s : doc.path("stages")) {
            if (s.path("name").asText().equals(name)) {
                return s.path("seconds").asDouble();
            }
        }
        return Double.NaN;
    }

    private static double warm(JsonNode doc) {
        JsonNode b = doc == null ? null : doc.get("benchmark");
        return b == null || b.isNull() ? Double.NaN : b.path("median_us").asDouble() / 1e6;
    }

    private static double total(JsonNode doc) {
        return doc == null ? Double.NaN : doc.path("total_seconds").asDouble(Double.NaN);
    }

    private static String verdict(JsonNode doc, int exit) {
        return doc == null ? "exit " + exit : doc.path("passed").asBoolean() ? "PASS" : "FAIL";
    }

    private static String row(String label, String a, String b, String ratio, String note) {
        return String.format(Locale.ROOT, ROW, label, a, b, ratio, note).stripTrailing();
    }

    static String seconds(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, s < 10 ? "%.3f s" : "%.1f s", s);
    }

    private static String times(double x) {
        return Double.isFinite(x) ? String.format(Locale.ROOT, "%.1fx", x) : "-";
    }

    static String ratio(double b, double a) {
        return Double.isFinite(b) && Double.isFinite(a) && a > 0 ? String.format(Locale.ROOT, "%.2f", b / a) : "";
    }

    private static String size(long bytes) {
        return bytes < 1048576 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }

    private static String rss(long kb) {
        return kb < 0 ? "-" : String.format(Locale.ROOT, "%.2f GiB", kb / 1048576.0);
    }
}
