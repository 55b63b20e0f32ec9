package dev.jpto.runtime.dfx;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code enable_chip_swimlane}: the run as Chrome trace events ({@code chip_swimlane.json}; open it in
 * ui.perfetto.dev or chrome://tracing), and the same executions in the original's record layout
 * ({@code chip_swimlane_records.json}; clock 1 GHz, so cycles are nanoseconds since the run began).
 *
 * <pre>
 * chip_swimlane.json   {"displayTimeUnit": "ns", "traceEvents": [...]}, timestamps in microseconds
 *   pid 1 = the chip; tid 0 = orchestrator, tid 1 + c = AIC core c, tid 1 + #AIC + c = AIV core c
 *   M  process_name / thread_name / thread_sort_index
 *   X  one per task on its core's track: name = kernel; args task_id (hex string), task_id_raw (decimal
 *      string), ring, local, scope_depth, core, thread, args[] ("input fp32[128, 64]", ...)
 *      one per back-pressure wait on the orchestrator track: args ring, resource
 *      level 4: one per submit on the orchestrator track, "submit &lt;kernel&gt;" (waits nest inside); a submit
 *      that ended the run is "submit &lt;kernel&gt; FAILED &lt;error&gt;", args error, error_code
 *   s/f one flow per distinct (pred, succ) edge, from the producer's slice to the consumer's, each end at the
 *      middle of its slice (bp "e": bound to the enclosing slice)
 * chip_swimlane_records.json
 *   chip_swimlane_level, metadata {clock_freq_hz, num_cores, core_types[], core_to_thread[]},
 *   aicore_tasks [core_id, task_token_raw, reg_task_id, start_cycles, end_cycles]   (reg_task_id: per-core
 *   dispatch counter), aicpu_tasks [core_id, reg_task_id, dispatch_cycles, finish_cycles]  (level >= 2),
 *   aicpu_orchestrator_phases {submit_idx, task_id, start_cycles, end_cycles}  (level 4; a failed submit last,
 *   with task_id "-1" and error)
 * </pre>
 */
final class SwimlaneWriter {
    static final String TRACE_FILE = "chip_swimlane.json";
    static final String RECORDS_FILE = "chip_swimlane_records.json";
    static final int PID = TraceTracks.PID;
    static final int ORCHESTRATOR_TID = TraceTracks.ORCHESTRATOR_TID;
    static final long CLOCK_FREQ_HZ = 1_000_000_000L;
    /** From this level on, every submit is a slice on the orchestrator track (and a records row). */
    static final int SUBMIT_LEVEL = 4;

    private SwimlaneWriter() {
    }

    static List<java.nio.file.Path> write(java.nio.file.Path prefix, DfxRun run, List<ExecInfo> execs, int level) {
        return List.of(Json.write(prefix.resolve(TRACE_FILE), g -> trace(g, run, execs)),
                Json.write(prefix.resolve(RECORDS_FILE), g -> records(g, run, execs, level)));
    }

    /** Global core id: AIC cores first, then AIV (the track of core c is {@code 1 + globalCore}). */
    static int globalCore(Platform p, CoreType type, int core) {
        return type == CoreType.AIC ? core : p.aicCores() + core;
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }

    private static void trace(JsonGenerator g, DfxRun run, List<ExecInfo> execs) throws IOException {
        Platform p = run.platform();
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ns");
        g.writeArrayFieldStart("traceEvents");
        TraceTracks.write(g, p, "jpto chip " + p.text() + ":" + run.deviceId());
        Map<Long, TaskInfo> byId = new HashMap<>();
        for (TaskInfo t : run.tasks()) {
            byId.put(t.id(), t);
        }
        Map<Long, ExecInfo> ran = new HashMap<>();
        for (ExecInfo e : execs) {
            ran.put(e.id(), e);
            TaskInfo t = byId.get(e.id());
            g.writeStartObject();
            g.writeStringField("ph", "X");
            g.writeStringField("cat", "task");
            g.writeStringField("name", e.kernel());
            g.writeNumberField("pid", PID);
            g.writeNumberField("tid", TraceTracks.tid(p, e.coreType(), e.core()));
            g.writeNumberField("ts", micros(e.start()));
            g.writeNumberField("dur", micros(e.wallNanos()));
            g.writeObjectFieldStart("args");
            g.writeStringField("task_id", TaskInfo.hex(e.id()));
            g.writeStringField("task_id_raw", Long.toString(e.id()));
            g.writeNumberField("ring", (int) (e.id() >>> 32));
            g.writeNumberField("local", e.id() & 0xFFFF_FFFFL);
            g.writeStringField("core", e.coreType().name() + " " + e.core());
            g.writeNumberField("thread", e.thread());
            if (t != null) {
                g.writeNumberField("scope_depth", t.scopeDepth());
                g.writeArrayFieldStart("args");
                for (ArgInfo a : t.args()) {
                    g.writeString(a.summary());
                }
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        for (WaitInfo w : run.waits()) {
            g.writeStartObject();
            g.writeStringField("ph", "X");
            g.writeStringField("cat", "back_pressure");
            g.writeStringField("name", "wait " + w.resourceName() + " (ring " + w.ring() + ")");
            g.writeNumberField("pid", PID);
            g.writeNumberField("tid", ORCHESTRATOR_TID);
            g.writeNumberField("ts", micros(w.start()));
            g.writeNumberField("dur", micros(w.end() - w.start()));
            g.writeObjectFieldStart("args");
            g.writeNumberField("ring", w.ring());
            g.writeStringField("resource", w.resourceName());
            g.writeEndObject();
            g.writeEndObject();
        }
        for (long[] sub : run.submits()) {
            TaskInfo t = byId.get(sub[0]);
            g.writeStartObject();
            g.writeStringField("ph", "X");
            g.writeStringField("cat", "submit");
            g.writeStringField("name", "submit " + (t == null ? "?" : t.kernel()));
            g.writeNumberField("pid", PID);
            g.writeNumberField("tid", ORCHESTRATOR_TID);
            g.writeNumberField("ts", micros(sub[1]));
            g.writeNumberField("dur", micros(sub[2] - sub[1]));
            g.writeObjectFieldStart("args");
            g.writeStringField("task_id", TaskInfo.hex(sub[0]));
            g.writeEndObject();
            g.writeEndObject();
        }
        for (FailedSubmit f : run.failedSubmits()) {
            g.writeStartObject();
            g.writeStringField("ph", "X");
            g.writeStringField("cat", "submit");
            g.writeStringField("name", "submit " + f.kernel() + " FAILED " + f.error().name());
            g.writeNumberField("pid", PID);
            g.writeNumberField("tid", ORCHESTRATOR_TID);
            g.writeNumberField("ts", micros(f.start()));
            g.writeNumberField("dur", micros(f.end() - f.start()));
            g.writeObjectFieldStart("args");
            g.writeStringField("error", f.error().name());
            g.writeNumberField("error_code", f.error().code());
            g.writeEndObject();
            g.writeEndObject();
        }
        Set<Pair> pairs = new HashSet<>();
        int flowId = 0;
        for (EdgeInfo e : run.edges()) {
            ExecInfo pred = ran.get(e.pred());
            ExecInfo succ = ran.get(e.succ());
            if (pred == null || succ == null || !pairs.add(new Pair(e.pred(), e.succ()))) {
                continue;
            }
            flowId++;
            // mid-slice timestamps: each flow end binds to the slice that encloses it, in Chrome and Perfetto alike
            TraceTracks.flow(g, "s", flowId, TraceTracks.tid(p, pred.coreType(), pred.core()),
                    micros(pred.start() + pred.wallNanos() / 2));
            TraceTracks.flow(g, "f", flowId, TraceTracks.tid(p, succ.coreType(), succ.core()),
                    micros(succ.start() + succ.wallNanos() / 2));
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private record Pair(long pred, long succ) {
    }

    private static void records(JsonGenerator g, DfxRun run, List<ExecInfo> execs, int level) throws IOException {
        Platform p = run.platform();
        int threads = run.schedulerThreads();
        int cores = p.aicCores() + p.aivCores();
        g.writeStartObject();
        g.writeNumberField("chip_swimlane_level", level);
        g.writeObjectFieldStart("metadata");
        g.writeNumberField("clock_freq_hz", CLOCK_FREQ_HZ);
        g.writeNumberField("num_cores", cores);
        g.writeArrayFieldStart("core_types");
        for (int c = 0; c < cores; c++) {
            g.writeNumber(c < p.aicCores() ? 0 : 1);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("core_to_thread");
        for (int c = 0; c < cores; c++) {
            int local = c < p.aicCores() ? c : c - p.aicCores();
            CoreType type = c < p.aicCores() ? CoreType.AIC : CoreType.AIV;
            g.writeNumber(threads == 0 ? -1 : Platform.schedulerThreadOf(type, local, threads));
        }
        g.writeEndArray();
        g.writeEndObject();
        int[] dispatchCounter = new int[cores];
        long[][] rows = new long[execs.size()][];
        for (int i = 0; i < rows.length; i++) {
            ExecInfo e = execs.get(i);
            int core = globalCore(p, e.coreType(), e.core());
            rows[i] = new long[] {core, e.id(), ++dispatchCounter[core], e.start(), e.end()};
        }
        g.writeArrayFieldStart("aicore_tasks");
        for (long[] r : rows) {
            Json.longArray(g, r);
        }
        g.writeEndArray();
        if (level >= 2) {
            g.writeArrayFieldStart("aicpu_tasks");
            for (long[] r : rows) {
                Json.longArray(g, new long[] {r[0], r[2], r[3], r[4]});
            }
            g.writeEndArray();
        }
        if (level >= SUBMIT_LEVEL) {
            g.writeArrayFieldStart("aicpu_orchestrator_phases");
            int idx = 0;
            for (long[] sub : run.submits()) {
                g.writeStartObject();
                g.writeNumberField("submit_idx", idx++);
                g.writeStringField("task_id", Long.toString(sub[0]));
                g.writeNumberField("start_cycles", sub[1]);
                g.writeNumberField("end_cycles", sub[2]);
                g.writeEndObject();
            }
            for (FailedSubmit f : run.failedSubmits()) {
                g.writeStartObject();
                g.writeNumberField("submit_idx", idx++);
                g.writeStringField("task_id", "-1"); // no task: the submit failed
                g.writeNumberField("start_cycles", f.start());
                g.writeNumberField("end_cycles", f.end());
                g.writeStringField("error", f.error().name());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
