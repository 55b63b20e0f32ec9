package dev.jpto.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.HardwareSpec;
import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The data a report page draws, as one JSON tree built from a {@link RunDir}; the page's script renders it. */
final class ReportModel {
    /** Above this many tasks the dependency graph becomes a table of kernel pairs: a drawing would not help. */
    static final int MAX_GRAPH_TASKS = 3000;
    /** A failed run lists at most this many tasks that never ran. */
    static final int MAX_WAITING = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReportModel() {
    }

    static ObjectNode of(RunDir d, HostPeak host) {
        ObjectNode root = JSON.createObjectNode();
        root.put("dir", d.dir().toAbsolutePath().toString());
        root.set("run", d.run().orElse(null));
        root.set("scope_header", d.scopeHeader().orElse(null));
        root.set("ring_timeline", d.ringTimeline().orElse(null));
        Optional<Platform> platform = platform(d);
        Optional<CriticalPath> critical = d.deps().flatMap(g -> d.host().map(h -> CriticalPath.of(g, h)));
        Set<Long> criticalIds = new HashSet<>();
        critical.ifPresent(c -> d.deps().ifPresent(g -> c.tasks().forEach(i -> criticalIds.add(g.ids()[i]))));
        d.host().ifPresent(t -> root.set("host_trace", trace(t, criticalIds)));
        d.device().ifPresent(t -> root.set("device_trace", trace(t, criticalIds)));
        critical.ifPresent(c -> {
            ObjectNode n = root.putObject("critical_path");
            n.put("length_us", c.lengthUs());
            double wall = d.host().map(Trace::spanUs).orElse(0.0);
            n.put("wall_us", wall);
            n.put("tasks", c.tasks().size());
        });
        kernels(root, d, platform, host);
        d.deps().ifPresent(g -> root.set("graph", g.size() <= MAX_GRAPH_TASKS ? graph(g) : kernelPairs(g)));
        if (d.failed()) {
            root.set("failure", failure(d));
        }
        return root;
    }

    static Optional<Platform> platform(RunDir d) {
        String name = d.run().map(r -> r.path("platform").asText(null))
                .or(() -> d.scopeHeader().map(h -> h.path("platform").asText(null))).orElse(null);
        if (name == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Platform.parse(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Lanes with tasks only; per task [lane, start, duration, critical] and its id, kernel and arguments. */
    private static ObjectNode trace(Trace t, Set<Long> critical) {
        ObjectNode n = JSON.createObjectNode();
        Map<Integer, Integer> used = new LinkedHashMap<>();
        t.tasks().stream().mapToInt(TraceTask::lane).sorted().distinct().forEach(l -> used.put(l, used.size()));
        ArrayNode lanes = n.putArray("lanes");
        used.keySet().forEach(l -> lanes.add(t.lanes().get(l)));
        double origin = t.startUs();
        ArrayNode bars = n.putArray("bars");
        ArrayNode info = n.putArray("info");
        for (TraceTask task : t.tasks()) {
            bars.addArray().add(used.get(task.lane())).add(round(task.startUs() - origin)).add(round(task.durUs()))
                    .add(critical.contains(task.id()) ? 1 : 0);
            info.addArray().add(hex(task.id())).add(task.kernel()).add(String.join(", ", task.args()));
        }
        n.put("span_us", t.spanUs());
        return n;
    }

    private static void kernels(ObjectNode root, RunDir d, Optional<Platform> platform, HostPeak host) {
        Optional<HardwareSpec> hw = platform.map(HardwareSpec::of);
        List<KernelRow> rows = !d.pmu().isEmpty() ? KernelRow.ofPmu(d.pmu(), hw.map(HardwareSpec::clockMhz).orElse(0))
                : d.host().map(KernelRow::ofTrace).orElse(List.of());
        ArrayNode k = root.putArray("kernels");
        for (KernelRow r : rows) {
            k.addObject().put("kernel", r.kernel()).put("tasks", r.tasks()).put("total_us", r.totalUs())
                    .put("mean_us", r.meanUs()).put("gflops", r.gflops()).put("gbps", r.gbps())
                    .put("device_us", r.deviceUs()).put("device_gflops", r.deviceGflops())
                    .put("intensity", r.intensity()).put("flops", r.flops()).put("bytes", r.bytes());
        }
        ObjectNode peaks = root.putObject("peaks");
        peaks.put("host_gflops", host.gflops()).put("host_gbps", host.gbps());
        hw.ifPresent(h -> peaks.put("device_gflops", h.peakCubeFlops(DType.FP16) / 1e9)
                .put("device_gbps", h.memory().chipGBps()));
    }

    /** Every task at (layer, position in layer), and its producers; kernels are the categories. */
    private static ObjectNode graph(DepGraph g) {
        ObjectNode n = JSON.createObjectNode();
        n.put("mode", "full");
        int[] layer = g.layers();
        Map<Integer, Integer> filled = new HashMap<>();
        List<String> kernels = new ArrayList<>();
        Map<String, Integer> kernelIndex = new HashMap<>();
        ArrayNode nodes = n.putArray("nodes");
        for (int i = 0; i < g.size(); i++) {
            int pos = filled.merge(layer[i], 1, Integer::sum) - 1;
            int k = kernelIndex.computeIfAbsent(g.kernels()[i], name -> {
                kernels.add(name);
                return kernels.size() - 1;
            });
            nodes.addArray().add(hex(g.ids()[i])).add(k).add(layer[i]).add(pos);
        }
        ArrayNode ks = n.putArray("kernels");
        kernels.forEach(ks::add);
        ArrayNode edges = n.putArray("edges");
        for (int i = 0; i < g.size(); i++) {
            for (int p : g.preds()[i]) {
                edges.addArray().add(p).add(i);
            }
        }
        return n;
    }

    /** Tasks per kernel and edges per (producer kernel, consumer kernel). */
    private static ObjectNode kernelPairs(DepGraph g) {
        ObjectNode n = JSON.createObjectNode();
        n.put("mode", "summary");
        n.put("tasks", g.size());
        n.put("edges", g.edgeCount());
        Map<String, Integer> perKernel = new LinkedHashMap<>();
        Map<String, Integer> pairs = new LinkedHashMap<>();
        for (int i = 0; i < g.size(); i++) {
            perKernel.merge(g.kernels()[i], 1, Integer::sum);
            for (int p : g.preds()[i]) {
                pairs.merge(g.kernels()[p] + "\u0000" + g.kernels()[i], 1, Integer::sum);
            }
        }
        ArrayNode ks = n.putArray("kernels");
        perKernel.forEach((k, c) -> ks.addObject().put("kernel", k).put("tasks", c));
        ArrayNode ps = n.putArray("pairs");
        pairs.forEach((k, c) -> {
            String[] fromTo = k.split("\u0000");
            ps.addObject().put("from", fromTo[0]).put("to", fromTo[1]).put("edges", c);
        });
        return n;
    }

    /** The error, where the rings stood, and the submitted tasks that never ran with the producers they waited on. */
    private static ObjectNode failure(RunDir d) {
        ObjectNode n = JSON.createObjectNode();
        String message = d.run().map(r -> r.path("error").path("message").asText(null))
                .or(() -> d.scopeStats().stream().filter(s -> s.has("error")).map(s -> s.path("error").asText())
                        .reduce((a, b) -> b)).orElse("the run failed");
        n.put("message", message);
        d.run().ifPresent(r -> n.set("code", r.path("error").path("code")));
        d.ringTimeline().ifPresent(t -> n.set("stop", t.path("stop")));
        d.deps().ifPresent(g -> {
            Set<Long> ran = new HashSet<>();
            d.host().ifPresent(h -> h.tasks().forEach(t -> ran.add(t.id())));
            ArrayNode waiting = n.putArray("waiting");
            int notRun = 0;
            for (int i = 0; i < g.size(); i++) {
                if (ran.contains(g.ids()[i])) {
                    continue;
                }
                notRun++;
                if (waiting.size() < MAX_WAITING) {
                    ArrayNode on = JSON.createArrayNode();
                    for (int p : g.preds()[i]) {
                        on.add(hex(g.ids()[p]) + " " + g.kernels()[p] + (ran.contains(g.ids()[p]) ? " (ran)" : ""));
                    }
                    waiting.addObject().put("task", hex(g.ids()[i])).put("kernel", g.kernels()[i]).set("on", on);
                }
            }
            n.put("not_run", notRun);
            n.put("submitted", g.size());
        });
        return n;
    }

    static String hex(long id) {
        return String.format(Locale.ROOT, "0x%016x", id);
    }

    private static double round(double us) {
        return Math.round(us * 1000) / 1000.0;
    }
}
