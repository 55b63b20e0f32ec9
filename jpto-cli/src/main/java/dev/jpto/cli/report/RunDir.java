package dev.jpto.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.lib.runner.RunOutputDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a run left in its output dir, each piece optional: the run's own summary ({@code run.json}, written by
 * {@code jpto run --report}), scope statistics and the ring timeline, the host and device swimlanes, the dependency
 * graph and the per-task counters.
 */
record RunDir(Path dir, Optional<JsonNode> run, List<JsonNode> scopeStats, Optional<JsonNode> ringTimeline,
              Optional<Trace> host, Optional<Trace> device, Optional<DepGraph> deps, List<PmuRow> pmu) {
    static final String SCOPE_STATS = "scope_stats/scope_stats.jsonl";
    static final String RING_TIMELINE = "scope_stats/ring_timeline.json";
    static final String HOST_TRACE = "chip_swimlane.json";
    static final String DEVICE_TRACE = "chip_swimlane_device.json";
    static final String DEPS = "deps.json";
    static final String PMU = "pmu.csv";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads {@code dir}.
     *
     * @throws IllegalArgumentException when {@code dir} is not a directory or holds none of a run's files
     */
    static RunDir read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory; give the --output-dir of a jpto run");
        }
        Optional<JsonNode> run = json(dir.resolve(RunOutputDir.RUN_JSON));
        List<JsonNode> stats = List.of();
        Path statsFile = dir.resolve(SCOPE_STATS);
        if (Files.isRegularFile(statsFile)) {
            stats = Files.readAllLines(statsFile).stream().filter(l -> !l.isBlank()).map(RunDir::parse).toList();
        }
        RunDir d = new RunDir(dir, run, stats, json(dir.resolve(RING_TIMELINE)),
                json(dir.resolve(HOST_TRACE)).map(Trace::of), json(dir.resolve(DEVICE_TRACE)).map(Trace::of),
                json(dir.resolve(DEPS)).map(DepGraph::of),
                Files.isRegularFile(dir.resolve(PMU)) ? PmuRow.read(dir.resolve(PMU)) : List.of());
        if (run.isEmpty() && stats.isEmpty() && d.host.isEmpty() && d.deps.isEmpty() && d.pmu.isEmpty()) {
            throw new IllegalArgumentException(dir + " holds none of the files a run writes (" + RunOutputDir.RUN_JSON
                    + ", " + SCOPE_STATS + ", " + HOST_TRACE + ", " + DEPS + ", " + PMU + "): run with --output-dir "
                    + dir + " --report, or with the DFX flags (--enable-scope-stats, --enable-chip-swimlane, ...)");
        }
        return d;
    }

    /** The scope statistics' header line, if any. */
    Optional<JsonNode> scopeHeader() {
        return scopeStats.isEmpty() ? Optional.empty() : Optional.of(scopeStats.getFirst());
    }

    /** Whether the run failed, by its summary or its scope statistics. */
    boolean failed() {
        return run.map(r -> r.has("error")).orElse(false)
                || scopeHeader().map(h -> h.path("fatal").asBoolean()).orElse(false);
    }

    private static Optional<JsonNode> json(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(file.toFile()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(SCOPE_STATS + ": a line is not valid JSON: " + e.getOriginalMessage(),
                    e);
        }
    }
}
