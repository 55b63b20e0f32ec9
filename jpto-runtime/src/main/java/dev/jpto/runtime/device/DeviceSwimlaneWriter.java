package dev.jpto.runtime.device;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.dfx.Json;
import dev.jpto.runtime.dfx.TraceTracks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link DeviceTimeline} as {@code chip_swimlane_device.json}: Chrome trace events in estimated device time
 * (open in ui.perfetto.dev), laid out like the host swimlane {@code chip_swimlane.json}.
 *
 * <pre>
 * {"displayTimeUnit": "ns", "traceEvents": [...], "otherData": {...}}, timestamps in microseconds of device time
 *   pid 1 = the chip; tid 0 = orchestrator, tid 1 + c = AIC core c, tid 1 + #AIC + c = AIV core c
 *   M  process_name / thread_name / thread_sort_index
 *   X  one per block on its core's track: name = kernel; args task_id (hex), task_id_raw, block, ready_us,
 *      dispatch_us (when the scheduler took the core)
 *      one per submit on the orchestrator track: "submit &lt;kernel&gt;"
 *   s/f one flow per distinct (pred, succ) edge, from the producer's last-ending block to the consumer's first,
 *      each end at the middle of its slice (bp "e")
 *   otherData: device_us, makespan_us, gm_floor_us, gm_bytes (all the tasks moved), hbm_bytes (the part that
 *      missed the L2)
 * </pre>
 */
public final class DeviceSwimlaneWriter {
    public static final String FILE = "chip_swimlane_device.json";
    private static final int PID = TraceTracks.PID;
    private static final int ORCHESTRATOR_TID = TraceTracks.ORCHESTRATOR_TID;

    private DeviceSwimlaneWriter() {
    }

    /**
     * Writes {@code dir/chip_swimlane_device.json} (creating {@code dir}) for {@code tasks} replayed as
     * {@code timeline}; returns the file.
     *
     * @throws UncheckedIOException naming the file that could not be written
     */
    public static Path write(Path dir, HardwareSpec spec, int deviceId, List<DeviceTask> tasks,
                             DeviceTimeline timeline) {
        return Json.write(dir.resolve(FILE), g -> trace(g, spec, deviceId, tasks, timeline));
    }

    private static void trace(JsonGenerator g, HardwareSpec spec, int deviceId, List<DeviceTask> tasks,
                              DeviceTimeline tl) throws IOException {
        Platform p = spec.platform();
        long submitPs = spec.runtime().submitNs() * 1000;
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ns");
        g.writeArrayFieldStart("traceEvents");
        TraceTracks.write(g, p, "jpto chip " + p.text() + ":" + deviceId + " (estimated device time)");
        Map<Long, BlockRun> first = new HashMap<>();
        Map<Long, BlockRun> last = new HashMap<>();
        for (BlockRun r : tl.runs()) {
            first.putIfAbsent(r.taskId(), r);
            last.merge(r.taskId(), r, (a, b) -> b.endPs() > a.endPs() ? b : a);
            slice(g, "task", r.kernel(), TraceTracks.tid(p, r.coreType(), r.core()), r.startPs(),
                    r.endPs() - r.startPs());
            g.writeObjectFieldStart("args");
            g.writeStringField("task_id", String.format("0x%016x", r.taskId()));
            g.writeStringField("task_id_raw", Long.toString(r.taskId()));
            g.writeNumberField("block", r.block());
            g.writeNumberField("ready_us", micros(r.readyPs()));
            g.writeNumberField("dispatch_us", micros(r.dispatchPs()));
            g.writeEndObject();
            g.writeEndObject();
        }
        for (BlockRun r : first.values().stream().sorted(Comparator.comparingLong(BlockRun::submittedPs)).toList()) {
            slice(g, "submit", "submit " + r.kernel(), ORCHESTRATOR_TID, r.submittedPs() - submitPs, submitPs);
            g.writeEndObject();
        }
        int flowId = 0;
        for (DeviceTask t : tasks) {
            for (long pred : new LinkedHashSet<>(t.preds())) {
                BlockRun from = last.get(pred);
                BlockRun to = first.get(t.id());
                if (from == null || to == null) {
                    continue;
                }
                flowId++;
                TraceTracks.flow(g, "s", flowId, TraceTracks.tid(p, from.coreType(), from.core()),
                        micros((from.startPs() + from.endPs()) / 2));
                TraceTracks.flow(g, "f", flowId, TraceTracks.tid(p, to.coreType(), to.core()),
                        micros((to.startPs() + to.endPs()) / 2));
            }
        }
        g.writeEndArray();
        // the run's totals (Perfetto shows otherData as trace metadata)
        g.writeObjectFieldStart("otherData");
        g.writeNumberField("device_us", tl.deviceMicros());
        g.writeNumberField("makespan_us", micros(tl.makespanPs()));
        g.writeNumberField("gm_floor_us", micros(tl.gmFloorPs()));
        g.writeNumberField("gm_bytes", tl.gmBytes());
        g.writeNumberField("hbm_bytes", tl.hbmBytes());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static double micros(long ps) {
        return ps / 1e6;
    }

    /** Opens an X event; the caller adds args (or nothing) and closes it. */
    private static void slice(JsonGenerator g, String cat, String name, int tid, long startPs, long durPs)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "X");
        g.writeStringField("cat", cat);
        g.writeStringField("name", name);
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeNumberField("ts", micros(startPs));
        g.writeNumberField("dur", micros(durPs));
    }
}
