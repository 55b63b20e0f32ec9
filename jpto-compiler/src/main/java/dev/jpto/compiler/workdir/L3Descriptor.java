package dev.jpto.compiler.workdir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.ChipCall;
import dev.jpto.compiler.l3.HostSlice;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.HostView;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.Placement;
import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Layout of an L3 work dir and of its {@code l3.json}, the host orchestration: the only place that knows its
 * file and field names.
 *
 * <pre>
 * WORKDIR/
 *   l3.json                  the descriptor below (written last: a half-written dir never loads)
 *   chips/NAME/              one chip work dir per chip program (manifest.json, kernels/, orchestration.json)
 *
 * l3.json
 * {
 *   "format":         "jpto-l3-workdir",
 *   "format_version": 1,
 *   "program":        "tiled_matmul",
 *   "chips":          2,
 *   "tensors":        [{"name": "a", "kind": "input", "dtype": "bf16", "shape": [256, 512]}, ...],
 *   "chip_programs":  [{"name": "matmul", "dir": "chips/matmul"}, ...],
 *   "calls": [{"label": "mm_r0", "program": "matmul", "placement": "round_robin",   // or "chip:1"
 *              "after": [],                                                      // explicit ordering
 *              "bindings": [{"param": "a", "tensor": "a",                        // whole tensor, or a box:
 *                            "starts": [0, 0], "extents": [64, 512], "dropped": [false, false]}, ...]}, ...]
 * }
 * </pre>
 * A loader rebuilds the program through {@link L3Program.Builder}, so every binding is checked again against the
 * chip program loaded from its directory.
 */
public final class L3Descriptor {
    public static final String FORMAT = "jpto-l3-workdir";
    public static final int FORMAT_VERSION = 1;
    public static final String L3_FILE = "l3.json";
    public static final String CHIPS_DIR = "chips";

    static final String F_FORMAT = "format";
    static final String F_FORMAT_VERSION = "format_version";
    static final String F_PROGRAM = "program";
    static final String F_CHIPS = "chips";
    static final String F_TENSORS = "tensors";
    static final String F_CHIP_PROGRAMS = "chip_programs";
    static final String F_CALLS = "calls";
    static final String F_NAME = "name";
    static final String F_KIND = "kind";
    static final String F_DTYPE = "dtype";
    static final String F_SHAPE = "shape";
    static final String F_DIR = "dir";
    static final String F_LABEL = "label";
    static final String F_PLACEMENT = "placement";
    static final String F_AFTER = "after";
    static final String F_BINDINGS = "bindings";
    static final String F_PARAM = "param";
    static final String F_TENSOR = "tensor";
    static final String F_STARTS = "starts";
    static final String F_EXTENTS = "extents";
    static final String F_DROPPED = "dropped";
    static final String ROUND_ROBIN = "round_robin";
    static final String CHIP_PREFIX = "chip:";

    /** Chip program names become directory names: a plain name, never a path. */
    private static final Pattern DIR_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private L3Descriptor() {
    }

    /** {@code chips/NAME}, the directory of chip program {@code name}; a name that is not a plain name is refused. */
    public static String chipDir(String name) {
        if (!DIR_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("chip program name '" + name + "' cannot name a work dir directory: "
                    + "use letters, digits, '_', '.', '-' (not starting with '.' or '-')");
        }
        return CHIPS_DIR + "/" + name;
    }

    public static ObjectNode toJson(L3Program p) {
        ObjectNode o = F.objectNode();
        o.put(F_FORMAT, FORMAT);
        o.put(F_FORMAT_VERSION, FORMAT_VERSION);
        o.put(F_PROGRAM, p.name());
        o.put(F_CHIPS, p.chips());
        ArrayNode ts = o.putArray(F_TENSORS);
        for (HostTensor t : p.tensors()) {
            ts.addObject().put(F_NAME, t.name()).put(F_KIND, t.kind().name().toLowerCase(Locale.ROOT))
                    .put(F_DTYPE, t.dtype().text()).set(F_SHAPE, OrchestrationCodec.longs(t.shape()));
        }
        ArrayNode cps = o.putArray(F_CHIP_PROGRAMS);
        for (String name : p.chipPrograms().keySet()) {
            cps.addObject().put(F_NAME, name).put(F_DIR, chipDir(name));
        }
        ArrayNode calls = o.putArray(F_CALLS);
        for (ChipCall c : p.calls()) {
            ObjectNode co = calls.addObject();
            co.put(F_LABEL, c.label()).put(F_PROGRAM, c.program().name());
            co.put(F_PLACEMENT, switch (c.placement()) {
                case Placement.RoundRobin r -> ROUND_ROBIN;
                case Placement.Chip chip -> CHIP_PREFIX + chip.index();
            });
            ArrayNode after = co.putArray(F_AFTER);
            c.after().forEach(after::add);
            ArrayNode bs = co.putArray(F_BINDINGS);
            for (Map.Entry<String, HostView> b : c.bindings().entrySet()) {
                ObjectNode bo = bs.addObject().put(F_PARAM, b.getKey()).put(F_TENSOR, b.getValue().tensor().name());
                if (b.getValue() instanceof HostSlice s) {
                    bo.set(F_STARTS, OrchestrationCodec.longs(s.starts()));
                    bo.set(F_EXTENTS, OrchestrationCodec.longs(s.extents()));
                    ArrayNode d = bo.putArray(F_DROPPED);
                    for (boolean x : s.dropped()) {
                        d.add(x);
                    }
                }
            }
        }
        return o;
    }

    /** The chip program directories {@code l3.json} names: chip program name → relative directory. */
    public static Map<String, String> chipDirs(JsonNode root) {
        JsonIn in = header(root);
        Map<String, String> dirs = new LinkedHashMap<>();
        for (JsonIn cp : in.field(F_CHIP_PROGRAMS).array()) {
            cp.onlyFields(F_NAME, F_DIR);
            String name = cp.field(F_NAME).text();
            if (dirs.put(name, cp.field(F_DIR).text()) != null) {
                throw cp.error("chip program '" + name + "' is listed twice");
            }
        }
        return dirs;
    }

    /**
     * Rebuilds the program from {@code l3.json} and the chip programs loaded from {@link #chipDirs}; a wrong
     * format, a missing or mistyped field, an unknown tensor or chip program, or a binding the chip program does
     * not accept is a {@link FormatException} naming where.
     */
    public static L3Program fromJson(JsonNode root, Map<String, Program> chipPrograms) {
        JsonIn in = header(root);
        L3Program.Builder b;
        try {
            b = L3Program.builder(in.field(F_PROGRAM).text())
                    .chips(in.field(F_CHIPS).integerIn(1, Integer.MAX_VALUE));
        } catch (IllegalArgumentException e) {
            throw in.error(e.getMessage());
        }
        Map<String, HostTensor> tensors = new LinkedHashMap<>();
        for (JsonIn t : in.field(F_TENSORS).array()) {
            t.onlyFields(F_NAME, F_KIND, F_DTYPE, F_SHAPE);
            String name = t.field(F_NAME).identifier();
            String kind = t.field(F_KIND).text();
            DType dtype = OrchestrationCodec.dtype(t.field(F_DTYPE));
            long[] shape = t.field(F_SHAPE).shape(dtype);
            try {
                HostTensor ht = switch (kind) {
                    case "input" -> b.input(name, dtype, shape);
                    case "output" -> b.output(name, dtype, shape);
                    case "scratch" -> b.scratch(name, dtype, shape);
                    default -> throw t.field(F_KIND).error("expected input, output or scratch, found \"" + kind + "\"");
                };
                tensors.put(name, ht);
            } catch (IllegalArgumentException e) {
                throw t.error(e.getMessage());
            }
        }
        List<ChipCall> calls = new ArrayList<>();
        for (JsonIn c : in.field(F_CALLS).array()) {
            c.onlyFields(F_LABEL, F_PROGRAM, F_PLACEMENT, F_AFTER, F_BINDINGS);
            String programName = c.field(F_PROGRAM).text();
            Program program = chipPrograms.get(programName);
            if (program == null) {
                throw c.field(F_PROGRAM).error("chip program '" + programName + "' is not one of "
                        + chipPrograms.keySet() + " listed in " + F_CHIP_PROGRAMS);
            }
            Map<String, HostView> bindings = new LinkedHashMap<>();
            for (JsonIn bi : c.field(F_BINDINGS).array()) {
                bi.onlyFields(F_PARAM, F_TENSOR, F_STARTS, F_EXTENTS, F_DROPPED);
                bindings.put(bi.field(F_PARAM).text(), view(bi, tensors));
            }
            List<ChipCall> after = new ArrayList<>();
            for (JsonIn a : c.field(F_AFTER).array()) {
                if (calls.isEmpty()) {
                    throw a.error("the first call cannot wait for an earlier one: expected an empty list");
                }
                after.add(calls.get(a.integerIn(0, calls.size() - 1)));
            }
            try {
                calls.add(b.call(c.field(F_LABEL).text(), program, bindings, placement(c.field(F_PLACEMENT)),
                        after.toArray(ChipCall[]::new)));
            } catch (IllegalArgumentException e) {
                throw c.error(e.getMessage());
            }
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw in.error(e.getMessage());
        }
    }

    private static JsonIn header(JsonNode root) {
        JsonIn in = new JsonIn(root, "$");
        in.onlyFields(F_FORMAT, F_FORMAT_VERSION, F_PROGRAM, F_CHIPS, F_TENSORS, F_CHIP_PROGRAMS, F_CALLS);
        String format = in.field(F_FORMAT).text();
        if (!format.equals(FORMAT)) {
            throw in.field(F_FORMAT).error("expected \"" + FORMAT + "\", found \"" + format
                    + "\": this is not a jpto L3 work dir descriptor");
        }
        long version = in.field(F_FORMAT_VERSION).integer();
        if (version != FORMAT_VERSION) {
            throw in.field(F_FORMAT_VERSION).error("format_version " + version + " is not supported: this jpto reads "
                    + "format_version " + FORMAT_VERSION + "; recompile the program with this jpto");
        }
        return in;
    }

    private static HostView view(JsonIn bi, Map<String, HostTensor> tensors) {
        String name = bi.field(F_TENSOR).text();
        HostTensor t = tensors.get(name);
        if (t == null) {
            throw bi.field(F_TENSOR).error("host tensor '" + name + "' is not declared in " + F_TENSORS);
        }
        if (!bi.has(F_STARTS) && !bi.has(F_EXTENTS) && !bi.has(F_DROPPED)) {
            return t;
        }
        List<JsonIn> ds = bi.field(F_DROPPED).array();
        boolean[] dropped = new boolean[ds.size()];
        for (int i = 0; i < dropped.length; i++) {
            dropped[i] = ds.get(i).bool();
        }
        try {
            return new HostSlice(t, bi.field(F_STARTS).longs(), bi.field(F_EXTENTS).longs(), dropped);
        } catch (IllegalArgumentException e) {
            throw bi.error(e.getMessage());
        }
    }

    private static Placement placement(JsonIn p) {
        String text = p.text();
        if (text.equals(ROUND_ROBIN)) {
            return Placement.roundRobin();
        }
        if (text.startsWith(CHIP_PREFIX)) {
            try {
                return Placement.chip(Integer.parseInt(text.substring(CHIP_PREFIX.length())));
            } catch (IllegalArgumentException e) {
                throw p.error("expected chip:N with N >= 0, found \"" + text + "\"");
            }
        }
        throw p.error("expected \"" + ROUND_ROBIN + "\" or \"" + CHIP_PREFIX + "N\", found \"" + text + "\"");
    }
}
