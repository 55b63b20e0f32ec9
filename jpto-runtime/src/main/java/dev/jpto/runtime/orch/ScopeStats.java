package dev.jpto.runtime.orch;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.runtime.io.AtomicFile;
import dev.jpto.runtime.io.OwnedFiles;
import dev.jpto.runtime.ring.Ring;
import dev.jpto.runtime.tensormap.TensorMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scope statistics ({@code enable_scope_stats}, spec f): one sample per scope boundary, oldest first, written
 * as {@code <output_prefix>/scope_stats/scope_stats.jsonl} after the run, behind a header line with the
 * capacities in force and the high-water marks per ring. Heap positions are the allocator's unrolled
 * (monotonic) counters, so wraps never make them go backwards.
 */
public final class ScopeStats {
    public static final int VERSION = 6;
    static final String DIR = "scope_stats";
    static final String FILE = "scope_stats.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StackWalker WALKER = StackWalker.getInstance();

    private final List<Map<String, Object>> samples = new ArrayList<>();
    private final RingTimeline timeline = new RingTimeline();

    /** Records a boundary of the scope at {@code depth} (its ring is {@link dev.jpto.runtime.RingField#ringOf}). */
    void sample(String phase, int depth, Ring ring, TensorMap tmap, String site) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("site", site);
        m.put("phase", phase);
        m.put("depth", depth);
        m.put("ring", ring.id);
        m.put("task_window_start", ring.lastTaskAlive());
        m.put("task_window_end", ring.tasks.nextLocal());
        m.put("heap_start", ring.heap.reclaimedTotal());
        m.put("heap_end", ring.heap.allocatedTotal());
        m.put("dep_pool_start", ring.deps.tail());
        m.put("dep_pool_end", ring.deps.top());
        m.put("tensormap", tmap.used());
        samples.add(m);
        if (!phase.equals("fatal")) {
            timeline.mark(phase, depth, ring.id, site);
        }
    }

    /** What {@code ring} holds right after a submit, for the occupancy timeline. */
    void occupancy(int ring, long heapUsed, long tasksLive, long depsUsed) {
        timeline.occupancy(ring, heapUsed, tasksLive, depsUsed);
    }

    public void fatalSample(int depth, Ring ring, TensorMap tmap, String error) {
        sample("fatal", depth, ring, tmap, "<fatal>");
        samples.getLast().put("error", error);
        timeline.stopped(depth, ring.id, ring.heap.used(), ring.tasks.nextLocal() - ring.lastTaskAlive(),
                ring.deps.used(), error);
    }

    /** {@code File.java:line} of the first caller outside the runtime's implementation. */
    static String site() {
        return WALKER.walk(frames -> frames
                .filter(f -> {
                    String c = f.getClassName();
                    return !c.startsWith("dev.jpto.runtime.orch.") && !c.startsWith("dev.jpto.runtime.sched.")
                            && !c.equals("dev.jpto.runtime.chip.Chip");
                })
                .findFirst()
                .map(f -> f.getFileName() + ":" + f.getLineNumber())
                .orElse("<unknown>"));
    }

    /** Whether {@code name}, directly under {@code output_prefix}, is what {@link #write} writes. */
    public static boolean isOutputName(String name) {
        return name.equals(DIR);
    }

    /** Removes what {@link #write} wrote under {@code prefix} (a reused output dir starts clean). */
    public static void removeOutput(Path prefix) throws IOException {
        OwnedFiles.deleteDir(prefix, DIR, d -> OwnedFiles.deleteFiles(d,
                n -> n.equals(FILE) || n.equals(RingTimeline.FILE)));
    }

    /** Writes header + samples, and the occupancy timeline beside them; returns the scope statistics file. */
    public Path write(Path prefix, Map<String, Object> header) {
        Path dir = prefix.resolve(DIR);
        Path file = dir.resolve(FILE);
        try {
            Files.createDirectories(dir);
            StringBuilder sb = new StringBuilder();
            // the spec's key order: version, fatal, dropped, total, then high-water marks and capacities
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("version", VERSION);
            h.put("fatal", header.get("fatal"));
            h.put("dropped", 0);
            h.put("total", samples.size());
            h.putAll(header);
            sb.append(JSON.writeValueAsString(h)).append('\n');
            for (Map<String, Object> s : samples) {
                sb.append(JSON.writeValueAsString(s)).append('\n');
            }
            AtomicFile.writeString(file, sb);
            Map<String, Object> capacities = new LinkedHashMap<>();
            for (String k : List.of("fatal", "heap", "task_window", "dep_pool", "heap_max", "task_window_max",
                    "dep_pool_max")) {
                capacities.put(k, header.get(k));
            }
            AtomicFile.writeString(dir.resolve(RingTimeline.FILE),
                    JSON.writeValueAsString(timeline.document(capacities)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write scope statistics to " + file, e);
        }
        return file;
    }
}
