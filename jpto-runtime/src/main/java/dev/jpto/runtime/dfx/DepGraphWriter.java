package dev.jpto.runtime.dfx;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code enable_dep_gen}: the task graph as {@code deps.json} (spec f; 64-bit values as strings) and as Graphviz
 * {@code deps.dot} (render with {@code dot -Tsvg deps.dot -o deps.svg}).
 *
 * <pre>
 * deps.json
 *   version, platform, fatal
 *   tasks[]   task_id (decimal string), task_id_hex, ring, local, scope auto|manual, scope_depth, kernel, core_type,
 *             block_num, require_sync_start (true only), active_mask (mixed tasks only: bit 0 AIC, 1 AIV0, 2 AIV1),
 *             args[] {arg_index, kind tensor|scalar, role, tensor_id, dtype, shape[], strides[], start_offset | value}
 *   tensors[] tensor_id, buffer_addr, version, dtype, buffer_numel, creator (task id or null)
 *   edges[]   pred, succ, arg (−1 for explicit), source creator|tensormap|explicit,
 *             flags [wait, retain], overlap covered|partial|null,
 *             tensor_id, consumer_/producer_ dtype, shape[], start_offset, strides[] (the two views)
 * </pre>
 * Edges are every (argument, producer) match at submit, in submit order: a consumer that reads two views of one
 * producer has two edges. Producers already retired at submit (their scope ended and all consumers released)
 * create no edge, as on the device.
 */
final class DepGraphWriter {
    static final String JSON_FILE = "deps.json";
    static final String DOT_FILE = "deps.dot";

    private DepGraphWriter() {
    }

    static List<Path> write(Path prefix, DfxRun run, boolean fatal) {
        Path json = Json.write(prefix.resolve(JSON_FILE), g -> json(g, run, fatal));
        Path dot = prefix.resolve(DOT_FILE);
        try {
            AtomicFile.writeString(dot, dot(run));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dot + ": " + e.getMessage(), e);
        }
        return List.of(json, dot);
    }

    private static void json(JsonGenerator g, DfxRun run, boolean fatal) throws IOException {
        g.writeStartObject();
        g.writeNumberField("version", 1);
        g.writeStringField("platform", run.platform().text());
        g.writeBooleanField("fatal", fatal);
        g.writeArrayFieldStart("tasks");
        for (TaskInfo t : run.tasks()) {
            g.writeStartObject();
            g.writeStringField("task_id", Long.toString(t.id()));
            g.writeStringField("task_id_hex", TaskInfo.hex(t.id()));
            g.writeNumberField("ring", t.ring());
            g.writeNumberField("local", t.local());
            g.writeStringField("scope", t.scope().text());
            g.writeNumberField("scope_depth", t.scopeDepth());
            g.writeStringField("kernel", t.kernel());
            g.writeStringField("core_type", t.activeMask() != 0 ? "MIX" : t.coreType().name());
            g.writeNumberField("block_num", t.blockNum());
            if (t.syncStart()) {
                g.writeBooleanField("require_sync_start", true);
            }
            if (t.activeMask() != 0) {
                g.writeNumberField("active_mask", t.activeMask());
            }
            g.writeArrayFieldStart("args");
            for (ArgInfo a : t.args()) {
                g.writeStartObject();
                g.writeNumberField("arg_index", a.index());
                g.writeStringField("kind", a.isTensor() ? "tensor" : "scalar");
                g.writeStringField("role", a.role());
                if (a.isTensor()) {
                    g.writeStringField("tensor_id", Long.toString(a.tensorId()));
                    g.writeStringField("dtype", a.dtype().text());
                    Json.longArray(g, "shape", a.shape());
                    Json.longArray(g, "strides", a.strides());
                    g.writeStringField("start_offset", Long.toString(a.offset()));
                } else {
                    g.writeNumberField("value", a.scalar());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("tensors");
        for (TensorInfo t : run.tensors()) {
            g.writeStartObject();
            g.writeStringField("tensor_id", Long.toString(t.id()));
            g.writeStringField("buffer_addr", Long.toString(t.address()));
            g.writeNumberField("version", t.version());
            g.writeStringField("dtype", t.dtype().text());
            g.writeStringField("buffer_numel", Long.toString(t.bufferNumel()));
            if (t.creator() >= 0) {
                g.writeStringField("creator", Long.toString(t.creator()));
            } else {
                g.writeNullField("creator");
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        java.util.Map<Long, TaskInfo> byId = new java.util.HashMap<>();
        for (TaskInfo t : run.tasks()) {
            byId.put(t.id(), t);
        }
        g.writeArrayFieldStart("edges");
        for (EdgeInfo e : run.edges()) {
            g.writeStartObject();
            g.writeStringField("pred", Long.toString(e.pred()));
            g.writeStringField("succ", Long.toString(e.succ()));
            g.writeNumberField("arg", e.arg());
            g.writeStringField("source", e.sourceName());
            g.writeArrayFieldStart("flags");
            for (String f : e.flagNames()) {
                g.writeString(f);
            }
            g.writeEndArray();
            String ov = e.overlapName();
            if (ov != null) {
                g.writeStringField("overlap", ov);
            } else {
                g.writeNullField("overlap");
            }
            g.writeStringField("tensor_id", Long.toString(e.tensorId()));
            view(g, "consumer_", argOf(byId.get(e.succ()), e.arg()));
            view(g, "producer_", producerView(byId.get(e.pred()), e.tensorId()));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static ArgInfo argOf(TaskInfo t, int index) {
        return t == null || index < 0 || index >= t.args().size() ? null : t.args().get(index);
    }

    /** The view through which the producer wrote the tensor: its first writing argument naming that tensor. */
    private static ArgInfo producerView(TaskInfo t, long tensorId) {
        if (t == null) {
            return null;
        }
        for (ArgInfo a : t.args()) {
            if (a.isTensor() && a.tensorId() == tensorId && a.direction() != dev.jpto.runtime.Direction.INPUT) {
                return a;
            }
        }
        return null;
    }

    private static void view(JsonGenerator g, String prefix, ArgInfo a) throws IOException {
        if (a == null || !a.isTensor()) {
            return;
        }
        g.writeStringField(prefix + "dtype", a.dtype().text());
        Json.longArray(g, prefix + "shape", a.shape());
        g.writeStringField(prefix + "start_offset", Long.toString(a.offset()));
        Json.longArray(g, prefix + "strides", a.strides());
    }

    /** One box per task (kernel and hex id), one arrow per distinct (pred, succ, arg, source). */
    static String dot(DfxRun run) {
        StringBuilder sb = new StringBuilder();
        sb.append("digraph deps {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n");
        for (TaskInfo t : run.tasks()) {
            sb.append("  ").append(node(t.id())).append(" [label=\"").append(escape(t.kernel())).append("\\n")
                    .append(TaskInfo.hex(t.id())).append("\"];\n");
        }
        Set<String> seen = new LinkedHashSet<>();
        for (EdgeInfo e : run.edges()) {
            String label = "arg " + e.arg() + " " + e.sourceName()
                    + (e.overlapName() == null ? "" : " (" + e.overlapName() + ")");
            seen.add("  " + node(e.pred()) + " -> " + node(e.succ()) + " [label=\"" + label + "\"];\n");
        }
        seen.forEach(sb::append);
        return sb.append("}\n").toString();
    }

    static String node(long id) {
        return "t" + Long.toUnsignedString(id);
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
