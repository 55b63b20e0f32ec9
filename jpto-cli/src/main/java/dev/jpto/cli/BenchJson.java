package dev.jpto.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.tools.bench.MatmulBenchmark;
import dev.jpto.tools.bench.NumpyBaseline;
import dev.jpto.tools.bench.RuntimeBenchmark;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code --json} documents of {@code jpto bench matmul} and {@code jpto bench runtime}
 * (docs/schema/bench.schema.json): the same figures as their lines, unrounded. {@code jpto bench PROGRAM --json}
 * is a run document (run.schema.json) whose command is {@code bench}.
 */
final class BenchJson {
    private BenchJson() {
    }

    static JsonDocument matmul(MatmulBenchmark.Result r, Optional<NumpyBaseline.Outcome> numpy) {
        JsonDocument doc = new JsonDocument("bench");
        ObjectNode root = doc.root();
        root.put("benchmark", "matmul");
        MatmulBenchmark.Options o = r.options();
        root.put("size", o.size()).put("dtype", o.dtype().text()).put("tile", o.tile()).put("warmups", o.warmups())
                .put("runs", o.runs()).put("unit", o.unit());
        root.set("vector", timing(r.vector()));
        root.set("scalar", timing(r.scalar()));
        root.put("ratio", r.ratio()).put("agree", r.agree()).put("fma_probe_gflops", r.fmaProbeGflops())
                .put("percent_of_probe", r.percentOfProbe()).put("nominal_peak_gflops", r.peak().gflops())
                .put("percent_of_nominal_peak", r.percentOfPeak());
        numpy.ifPresent(n -> {
            ObjectNode b = root.putObject("baseline");
            b.put("name", "numpy");
            switch (n) {
                case NumpyBaseline.Measured m -> b.put("available", true).put("version", m.numpyVersion())
                        .put("core", m.core()).put("gflops", m.gflops()).put("best_cpu_seconds", m.bestCpuSeconds())
                        .put("best_seconds", m.bestSeconds()).put("median_seconds", m.medianSeconds())
                        .put("jpto_over_baseline", r.vector().gflops() / m.gflops());
                case NumpyBaseline.Unavailable u -> b.put("available", false).put("reason", u.reason());
            }
        });
        root.put("passed", r.agree());
        return doc;
    }

    private static ObjectNode timing(MatmulBenchmark.Timing t) {
        return JsonDocument.object().put("engine", t.engine()).put("c_tiles", t.cTiles())
                .put("matmul_calls", t.matmulCalls()).put("flops", t.flops()).put("gflops", t.gflops())
                .put("wall_gflops", t.wallGflops()).put("best_cpu_seconds", t.bestCpuSeconds())
                .put("best_seconds", t.bestSeconds()).put("median_seconds", t.medianSeconds())
                .put("allocated_bytes", t.allocatedBytes());
    }

    static JsonDocument runtime(RuntimeBenchmark.Options o, List<RuntimeBenchmark.Row> rows) {
        JsonDocument doc = new JsonDocument("bench");
        ObjectNode root = doc.root();
        root.put("benchmark", "runtime");
        root.put("platform", o.platform().text()).put("tasks", o.tasks()).put("block", o.block())
                .put("warmups", o.warmups()).put("runs", o.runs()).put("schedulers", o.workers())
                .put("warmup_seconds", o.warmupSeconds());
        ArrayNode shapes = root.putArray("shapes");
        for (RuntimeBenchmark.Row r : rows) {
            shapes.addObject().put("shape", r.shape().name().toLowerCase(Locale.ROOT))
                    .put("jpto_ns_per_task", r.jptoNsPerTask()).put("forkjoin_ns_per_task", r.forkJoinNsPerTask())
                    .put("ratio", r.ratio()).put("ratio_q1", r.ratioQ1()).put("ratio_q3", r.ratioQ3())
                    .put("jpto_cpu_ns_per_task", r.jptoCpuNsPerTask())
                    .put("forkjoin_cpu_ns_per_task", r.forkJoinCpuNsPerTask()).put("cpu_ratio", r.cpuRatio())
                    .put("jpto_submit_cpu_ns_per_task", r.jptoSubmitCpuNsPerTask())
                    .put("forkjoin_submit_cpu_ns_per_task", r.forkJoinSubmitCpuNsPerTask());
        }
        root.put("passed", true);
        return doc;
    }

    /** A bench document for a refused command: the benchmark's name and the error. */
    static JsonDocument failed(String benchmark, String line) {
        JsonDocument doc = new JsonDocument("bench");
        doc.root().put("benchmark", benchmark);
        doc.failed(new Outcome.Failure(ExitCodes.USAGE, line, Optional.empty()));
        doc.root().put("passed", false);
        return doc;
    }
}
