package dev.jpto.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.sweep.Sweep;
import dev.jpto.sweep.SweepCase;
import dev.jpto.sweep.SweepCompare;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code --json} documents of {@code jpto sweep} (docs/schema/sweep-run.schema.json: every case of the sweep
 * file with its result line from results.jsonl) and {@code jpto sweep compare}
 * (docs/schema/sweep-compare.schema.json: the findings the lines list).
 */
final class SweepJson {
    static final String NOT_RUN = "NOT RUN";

    private SweepJson() {
    }

    /** The file, the out dir and, once the sweep has run, its counts and cases. */
    static void sweep(ObjectNode root, Path file, Path out, Sweep.Outcome o) {
        root.put("file", file.toString()).put("out", out.toString());
        if (o == null) {
            return;
        }
        Map<String, JsonNode> byId = new HashMap<>();
        o.results().forEach(r -> byId.putIfAbsent(r.get("case_id").asText(), r));
        root.put("cases", o.cases().size()).put("ran_now", o.ranNow());
        if (o.parallel() == null) {
            root.putNull("parallel");
        } else {
            root.putObject("parallel").put("slots", o.parallel().slots()).put("reason", o.parallel().reason());
        }
        int expected = 0;
        int notRun = 0;
        ArrayNode rows = root.putArray("results");
        for (SweepCase c : o.cases()) {
            JsonNode r = byId.get(c.id());
            String status = r == null ? NOT_RUN : r.get("observed").asText();
            boolean asExpected = status.equals(c.expect());
            expected += asExpected ? 1 : 0;
            notRun += r == null ? 1 : 0;
            ObjectNode row = rows.addObject().put("case_id", c.id()).put("label", c.label()).put("program", c.name())
                    .put("preset", c.preset());
            row.set("runtime_cfg", JsonDocument.strings(c.runtimeCfg()));
            row.put("platform", c.platform()).put("seed", c.seed()).put("expect", c.expect()).put("status", status)
                    .put("as_expected", asExpected);
            row.set("result", r == null ? root.nullNode() : r);
        }
        root.putObject("counts").put("as_expected", expected).put("unexpected", o.cases().size() - expected - notRun)
                .put("not_run", notRun);
    }

    static void compare(ObjectNode root, Path oldRun, Path newRun, double thresholdPct, SweepCompare.Findings f) {
        root.put("old", oldRun.toString()).put("new", newRun.toString()).put("threshold_pct", thresholdPct);
        if (f == null) {
            return;
        }
        root.put("old_results", f.oldResults()).put("new_results", f.newResults()).put("both", f.both())
                .put("only_old", f.onlyOld()).put("only_new", f.onlyNew());
        ArrayNode changed = root.putArray("status_changes");
        f.changed().forEach(c -> changed.addObject().put("case_id", c.caseId()).put("label", c.label())
                .put("old", c.was()).put("new", c.is()));
        ArrayNode slower = root.putArray("slower");
        f.slower().forEach(s -> slower.addObject().put("case_id", s.caseId()).put("label", s.label())
                .put("metric", s.metric()).put("old", s.was()).put("new", s.is()).put("percent", s.percent()));
    }
}
