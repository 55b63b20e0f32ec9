package dev.jpto.cli;

import dev.jpto.sweep.SweepCompare;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code jpto sweep compare OLD NEW}: status changes and timing regressions between two sweeps, for CI. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"List the cases (by case id) whose status changed between two sweeps and those slower by "
                + "more than --threshold: the benchmark median when both ran with bench, else the total stage time.",
            "Exit 0 none, 1 any, 2 bad input."})
final class SweepCompareCommand implements Callable<Integer> {
    @ParentCommand
    SweepCommand sweep;

    @Parameters(index = "0", paramLabel = "OLD", description = "the earlier sweep's --out directory (or its "
            + "results.jsonl)")
    Path oldRun;

    @Parameters(index = "1", paramLabel = "NEW", description = "the later sweep's --out directory (or its "
            + "results.jsonl)")
    Path newRun;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "10",
            description = "slower by more than this percentage is a regression (default ${DEFAULT-VALUE})")
    double thresholdPct;

    @Option(names = "--json", description = "print one JSON document (docs/schema/sweep-compare.schema.json) instead "
            + "of the lines")
    boolean json;

    @Override
    public Integer call() {
        if (!json) {
            return Outcome.of("sweep compare", sweep.top.err, false,
                    () -> new SweepCompare(sweep.top.out, thresholdPct).compare(oldRun, newRun));
        }
        JsonDocument doc = new JsonDocument("sweep compare");
        SweepJson.compare(doc.root(), oldRun, newRun, thresholdPct, null);
        int code = Outcome.of("sweep compare", sweep.top.err, false, () -> {
            SweepCompare.Findings f = new SweepCompare(sweep.top.out, thresholdPct).findings(oldRun, newRun);
            SweepJson.compare(doc.root(), oldRun, newRun, thresholdPct, f);
            return f.exitCode();
        }, doc::failed);
        doc.root().put("passed", code == 0);
        doc.print(sweep.top.out);
        return code;
    }
}
