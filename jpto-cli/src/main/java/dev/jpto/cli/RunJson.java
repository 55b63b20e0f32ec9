package dev.jpto.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.OutputCheck;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import dev.jpto.lib.runner.RuntimeCfg;
import java.util.Map;
import java.util.Optional;

/** {@code jpto run --json}'s fields (docs/schema/run.schema.json), from the run's spec and its {@link RunResult}. */
final class RunJson {
    private RunJson() {
    }

    /**
     * What is known before the run: program, preset, seed, chip, and the runtime_cfg in force with where each
     * value came from ({@code default}, {@code program} default, {@code user} --runtime-cfg or DFX flags,
     * {@code flag} for --platform/--device).
     */
    static void describe(ObjectNode root, ProgramSpec spec, RunSpec run, Map<String, String> userCfg) {
        root.put("program", spec.programName());
        root.put("preset", spec.preset());
        root.put("seed", run.seed());
        root.put("platform", run.platform().text());
        root.put("device", run.deviceId());
        // the very resolution GoldenRunner does: a bad key fails here with the same message
        RunConfig inForce = RuntimeCfg.resolve(spec.runtimeCfg(), userCfg, run.platform(), run.deviceId());
        root.set("runtime_cfg", runtimeCfg(inForce, spec.runtimeCfg(), userCfg));
    }

    /**
     * The RunConfig in force by key, each value with its source: {@code user} (--runtime-cfg, DFX flags),
     * {@code program} (the program's default runtime_cfg, or the one saved in a work dir), {@code flag}
     * (--platform, --device) or RunConfig's {@code default}.
     */
    static ObjectNode runtimeCfg(RunConfig inForce, Map<String, String> programCfg, Map<String, String> userCfg) {
        ObjectNode cfg = JsonDocument.object();
        inForce.asMap().forEach((key, value) -> cfg.putObject(key).put("value", value)
                .put("source", userCfg.containsKey(key) ? "user" : programCfg.containsKey(key) ? "program"
                        : key.equals("platform") || key.equals("device_id") ? "flag" : "default"));
        return cfg;
    }

    /** A benchmark's rounds and times, or JSON null when none ran. */
    static JsonNode benchmark(Optional<BenchmarkResult> benchmark) {
        return benchmark.<JsonNode>map(b -> JsonDocument.object().put("rounds", b.rounds()).put("min_us", b.minUs())
                .put("median_us", b.medianUs()).put("mean_us", b.meanUs()).put("max_us", b.maxUs())
                .put("work_gflop", b.last().workFlops() / 1e9).put("effective_gops", b.effectiveGops()))
                .orElse(NullNode.getInstance());
    }

    /** What the run did: stage times, the verdict per output, the chip's report, the benchmark if any. */
    static void result(ObjectNode root, RunResult r) {
        ArrayNode stages = root.putArray("stages");
        r.stageNanos().forEach((name, nanos) -> stages.addObject().put("name", name).put("seconds", nanos / 1e9));
        root.put("total_seconds", r.totalNanos() / 1e9);
        ArrayNode outputs = root.putArray("outputs");
        r.outputs().forEach(o -> outputs.add(output(o)));
        root.set("report", PlanJson.report(r.report()));
        root.set("benchmark", benchmark(r.benchmark()));
        root.put("work_dir", r.workDir().map(Object::toString).orElse(null));
    }

    /** One output's verdict, comparison counts and errors, and its first mismatching indices. */
    static ObjectNode output(OutputCheck o) {
        CompareResult c = o.result();
        ObjectNode n = JsonDocument.object();
        n.put("name", o.name());
        n.put("verdict", o.skipped() ? "SKIP" : o.passed() ? "PASS" : "FAIL");
        n.put("dtype", o.dtype().text());
        ArrayNode shape = n.putArray("shape");
        for (long d : o.shape()) {
            shape.add(d);
        }
        n.put("numel", c.numel());
        n.put("mismatch_count", c.mismatchCount());
        number(n, "max_abs_error", c.maxAbsError());
        number(n, "max_rel_error", c.maxRelError());
        ArrayNode first = n.putArray("first_mismatches");
        for (long[] index : c.firstMismatches()) {
            ArrayNode i = first.addArray();
            for (long x : index) {
                i.add(x);
            }
        }
        n.put("description", c.description());
        return n;
    }

    /** JSON has no NaN or infinity: a comparison that compared nothing (NaN) or overflowed is null. */
    private static void number(ObjectNode n, String field, double v) {
        if (Double.isFinite(v)) {
            n.put(field, v);
        } else {
            n.putNull(field);
        }
    }
}
