package dev.jpto.runtime.dfx;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import java.io.IOException;

/**
 * The track layout and dependency arrows every chip trace shares (Chrome trace events): one process, the
 * orchestrator on track 0, then one track per logical core, AIC cores first. The host swimlane and the device-time swimlane both use it, so the
 * two files line up track by track. Public for the device model's writer; the package is not exported.
 */
public final class TraceTracks {
    /** The chip's process id in a trace. */
    public static final int PID = 1;
    /** The orchestrator's track. */
    public static final int ORCHESTRATOR_TID = 0;

    private TraceTracks() {
    }

    /** The track of logical core {@code core} of {@code type}. */
    public static int tid(Platform p, CoreType type, int core) {
        return 1 + (type == CoreType.AIC ? core : p.aicCores() + core);
    }

    /** Names the process {@code processName} and every track, in track order. */
    public static void write(JsonGenerator g, Platform p, String processName) throws IOException {
        meta(g, "process_name", -1, processName);
        meta(g, "thread_name", ORCHESTRATOR_TID, "orchestrator");
        sortIndex(g, ORCHESTRATOR_TID);
        for (CoreType t : CoreType.values()) {
            for (int c = 0; c < p.cores(t); c++) {
                int tid = tid(p, t, c);
                meta(g, "thread_name", tid, t.name() + " " + c);
                sortIndex(g, tid);
            }
        }
    }

    /** One end of a dependency arrow: {@code ph} "s" at the producer, "f" at the consumer, at {@code tsMicros}. */
    public static void flow(JsonGenerator g, String ph, int id, int tid, double tsMicros) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", ph);
        g.writeStringField("cat", "dep");
        g.writeStringField("name", "dep");
        g.writeNumberField("id", id);
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeNumberField("ts", tsMicros);
        if (ph.equals("f")) {
            g.writeStringField("bp", "e");
        }
        g.writeEndObject();
    }

    private static void meta(JsonGenerator g, String name, int tid, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "M");
        g.writeStringField("name", name);
        g.writeNumberField("pid", PID);
        if (tid >= 0) {
            g.writeNumberField("tid", tid);
        }
        g.writeObjectFieldStart("args");
        g.writeStringField("name", value);
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void sortIndex(JsonGenerator g, int tid) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "M");
        g.writeStringField("name", "thread_sort_index");
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeNumberField("sort_index", tid);
        g.writeEndObject();
        g.writeEndObject();
    }
}
