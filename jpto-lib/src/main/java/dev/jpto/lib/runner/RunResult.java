package dev.jpto.lib.runner;

import dev.jpto.compiler.BenchmarkResult;
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
 * @param workDir    the work dir, when it was kept (an output dir was given)
 */
public record RunResult(String program, String preset, boolean passed, List<OutputCheck> outputs,
                        Map<String, Long> stageNanos, long totalNanos, RunReport report,
                        Optional<BenchmarkResult> benchmark, Optional<Path> workDir) {
    public RunResult {
        outputs = List.copyOf(outputs);
        stageNanos = Collections.unmodifiableMap(new LinkedHashMap<>(stageNanos));
    }
}
