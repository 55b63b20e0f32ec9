package dev.jpto.lib.runner;

import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.runtime.RunReport;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link GoldenRunner#runJit} did.
 *
 * @param stageNanos wall time per stage, in the order run ({@code compile}, {@code generate inputs}, …)
 * @param report     the chip's report; for an L3 program, the whole run as one ({@link L3Report#aggregate})
 * @param workDir    the work dir, when it was kept (an output dir was given)
 * @param l3         for an L3 program, the run's per-call and per-device report
 */
public record RunResult(String program, String preset, boolean passed, List<OutputCheck> outputs,
                        Map<String, Long> stageNanos, long totalNanos, RunReport report,
                        Optional<BenchmarkResult> benchmark, Optional<Path> workDir, Optional<L3Report> l3) {
    public RunResult {
        outputs = List.copyOf(outputs);
        stageNanos = Collections.unmodifiableMap(new LinkedHashMap<>(stageNanos));
    }
}
