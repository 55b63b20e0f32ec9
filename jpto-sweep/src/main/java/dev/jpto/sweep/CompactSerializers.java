package dev.jpto.sweep;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hazelcast Compact serializers for what crosses the cluster: a case out, its result back. A schema of named,
 * typed fields: a message can only ever become one of these records (never a class it names, as Java
 * serialization would allow). Maps travel as two parallel arrays.
 */
final class CompactSerializers {
    private CompactSerializers() {
    }

    static List<CompactSerializer<?>> all() {
        return List.of(new Task(), new Result());
    }

    private static void writeMap(CompactWriter w, String name, Map<String, ?> map) {
        w.writeArrayOfString(name + "_keys", map.keySet().toArray(String[]::new));
        w.writeArrayOfString(name + "_values", map.values().stream().map(String::valueOf).toArray(String[]::new));
    }

    private static Map<String, String> readMap(CompactReader r, String name) {
        String[] keys = r.readArrayOfString(name + "_keys");
        String[] values = r.readArrayOfString(name + "_values");
        if (keys.length != values.length) {
            throw new IllegalArgumentException(name + ": " + keys.length + " keys but " + values.length + " values");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            m.put(keys[i], values[i]);
        }
        return m;
    }

    /** A case to run. */
    static final class Task implements CompactSerializer<CaseTask> {
        @Override
        public CaseTask read(CompactReader r) {
            return new CaseTask(new SweepCase(r.readString("program"), r.readString("name"), r.readString("preset"),
                    readMap(r, "runtime_cfg"), r.readString("platform"), r.readInt64("seed"), r.readInt32("bench"),
                    r.readString("expect")), r.readString("results_map"));
        }

        @Override
        public void write(CompactWriter w, CaseTask task) {
            SweepCase c = task.sweepCase();
            w.writeString("program", c.program());
            w.writeString("name", c.name());
            w.writeString("preset", c.preset());
            writeMap(w, "runtime_cfg", c.runtimeCfg());
            w.writeString("platform", c.platform());
            w.writeInt64("seed", c.seed());
            w.writeInt32("bench", c.bench());
            w.writeString("expect", c.expect());
            w.writeString("results_map", task.resultsMap());
        }

        @Override
        public String getTypeName() {
            return "jpto.sweep.CaseTask";
        }

        @Override
        public Class<CaseTask> getCompactClass() {
            return CaseTask.class;
        }
    }

    /** A case's result. */
    static final class Result implements CompactSerializer<CaseResult> {
        @Override
        public CaseResult read(CompactReader r) {
            Map<String, Long> stages = new LinkedHashMap<>();
            readMap(r, "stage_ms").forEach((k, v) -> stages.put(k, Long.parseLong(v)));
            return new CaseResult(r.readString("case_id"), r.readString("program"), r.readString("preset"),
                    readMap(r, "runtime_cfg"), r.readString("platform"), r.readInt64("seed"), r.readString("expect"),
                    r.readString("outcome"), r.readInt32("exit_code"), r.readString("error_code"),
                    r.readString("message"), Arrays.asList(r.readArrayOfString("verdicts")), stages,
                    r.readFloat64("effective_us"), deviceUs(r), longs(r.readArrayOfInt64("heap_high_water")),
                    longs(r.readArrayOfInt64("heap_capacity")), r.readString("member"));
        }

        /** -1 from a member of an older jpto whose results carry no device estimate. */
        private static double deviceUs(CompactReader r) {
            return r.getFieldKind("device_us") == FieldKind.FLOAT64 ? r.readFloat64("device_us") : -1;
        }

        private static List<Long> longs(long[] a) {
            List<Long> out = new ArrayList<>(a.length);
            for (long v : a) {
                out.add(v);
            }
            return out;
        }

        @Override
        public void write(CompactWriter w, CaseResult c) {
            w.writeString("case_id", c.caseId());
            w.writeString("program", c.program());
            w.writeString("preset", c.preset());
            writeMap(w, "runtime_cfg", c.runtimeCfg());
            w.writeString("platform", c.platform());
            w.writeInt64("seed", c.seed());
            w.writeString("expect", c.expect());
            w.writeString("outcome", c.outcome());
            w.writeInt32("exit_code", c.exitCode());
            w.writeString("error_code", c.errorCode());
            w.writeString("message", c.message());
            w.writeArrayOfString("verdicts", c.verdicts().toArray(String[]::new));
            writeMap(w, "stage_ms", c.stageMillis());
            w.writeFloat64("effective_us", c.effectiveUs());
            w.writeFloat64("device_us", c.deviceUs());
            w.writeArrayOfInt64("heap_high_water", c.heapHighWater().stream().mapToLong(Long::longValue).toArray());
            w.writeArrayOfInt64("heap_capacity", c.heapCapacity().stream().mapToLong(Long::longValue).toArray());
            w.writeString("member", c.member());
        }

        @Override
        public String getTypeName() {
            return "jpto.sweep.CaseResult";
        }

        @Override
        public Class<CaseResult> getCompactClass() {
            return CaseResult.class;
        }
    }
}
