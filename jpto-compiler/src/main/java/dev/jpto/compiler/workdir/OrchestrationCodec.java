package dev.jpto.compiler.workdir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.MixedLanes;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.DType;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.ScopeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The orchestration IR as JSON ({@code orchestration.json}), written to be read by people as well as loaded.
 *
 * <pre>
 * statement  {"for": "i", "start": "0", "end": "4", "step": 1, "body": [statement...]}
 *            {"scope": [statement...], "kind": "manual"}          kind optional: "auto" (default) or "manual"
 *            {"alloc": "tmp", "dtype": "fp32", "shape": [64, 64]}
 *            {"submit": "add_tile", "core": "aiv", "args": [arg...],
 *             "block_num": 8, "label": "a", "after": ["b"]}    the last three optional: 1, none, []
 * arg        {"input" | "output" | "inout" | "output_existing" | "no_dep": tensor}
 *            {"index": "64*i + 3"}   {"float": 0.125}
 * tensor     "x"                                   a whole declared tensor
 *            {"slice": tensor, "starts": ["64*i", "0"], "extents": [64, 128]}
 *            {"reshape": tensor, "shape": [16, 512]}
 * </pre>
 * Index expressions use {@link Affine}'s text form. Unknown fields are rejected, not ignored.
 */
public final class OrchestrationCodec {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** The {@code "core"} of a mixed submit (its lanes name the cube and vector kernels). */
    private static final String MIX = "mix";

    private OrchestrationCodec() {
    }

    public static ArrayNode encodeBody(List<Stmt> body) {
        ArrayNode out = F.arrayNode();
        for (Stmt s : body) {
            out.add(encode(s));
        }
        return out;
    }

    private static ObjectNode encode(Stmt s) {
        ObjectNode o = F.objectNode();
        switch (s) {
            case Stmt.For f -> {
                o.put("for", f.var());
                o.put("start", f.start().toString());
                o.put("end", f.end().toString());
                o.put("step", f.step());
                o.set("body", encodeBody(f.body()));
            }
            case Stmt.Scope sc -> {
                o.set("scope", encodeBody(sc.body()));
                if (sc.kind() != ScopeKind.AUTO) {
                    o.put("kind", sc.kind().text());
                }
            }
            case Stmt.Alloc a -> {
                o.put("alloc", a.tensor().name());
                o.put("dtype", a.tensor().dtype().text());
                o.set("shape", longs(a.tensor().shape()));
            }
            case Stmt.Read r -> {
                o.put("read", r.var());
                o.set("element", encode(r.element()));
                o.put("max", r.max());
            }
            case Stmt.Submit sub -> {
                o.put("submit", sub.kernel());
                o.put("core", sub.mixed() != null ? MIX : sub.coreType().name().toLowerCase(Locale.ROOT));
                if (sub.mixed() != null) {
                    ObjectNode lanes = o.putObject("lanes");
                    for (int lane = 0; lane < 3; lane++) {
                        if (sub.mixed().lane(lane) != null) {
                            lanes.put(MixedLanes.LANE_NAMES.get(lane), sub.mixed().lane(lane));
                        }
                    }
                }
                ArrayNode args = o.putArray("args");
                for (SubmitArg a : sub.args()) {
                    args.add(encode(a));
                }
                if (sub.blockNum() != 1) {
                    o.put("block_num", sub.blockNum());
                }
                if (sub.requireSyncStart()) {
                    o.put("require_sync_start", true);
                }
                if (sub.label() != null) {
                    o.put("label", sub.label());
                }
                if (!sub.after().isEmpty()) {
                    ArrayNode after = o.putArray("after");
                    sub.after().forEach(after::add);
                }
            }
        }
        return o;
    }

    private static ObjectNode encode(SubmitArg a) {
        ObjectNode o = F.objectNode();
        switch (a) {
            case SubmitArg.TensorArg t -> o.set(t.direction().name().toLowerCase(Locale.ROOT), encode(t.tensor()));
            case SubmitArg.IndexArg i -> o.put("index", i.value().toString());
            case SubmitArg.FloatArg f -> o.put("float", f.value());
        }
        return o;
    }

    private static JsonNode encode(TensorExpr e) {
        return switch (e) {
            case TensorExpr.Ref r -> F.textNode(r.name());
            case TensorExpr.Slice s -> {
                ObjectNode o = F.objectNode();
                o.set("slice", encode(s.base()));
                ArrayNode starts = o.putArray("starts");
                for (Affine a : s.starts()) {
                    starts.add(a.toString());
                }
                o.set("extents", longs(s.extents()));
                yield o;
            }
            case TensorExpr.Reshape r -> {
                ObjectNode o = F.objectNode();
                o.set("reshape", encode(r.base()));
                o.set("shape", longs(r.shape()));
                yield o;
            }
        };
    }

    static ArrayNode longs(long[] values) {
        ArrayNode a = F.arrayNode();
        for (long v : values) {
            a.add(v);
        }
        return a;
    }

    // ---- decoding ----

    public static List<Stmt> decodeBody(JsonNode node, String path) {
        return body(new JsonIn(node, path));
    }

    private static List<Stmt> body(JsonIn in) {
        List<Stmt> out = new ArrayList<>();
        for (JsonIn s : in.array()) {
            out.add(stmt(s));
        }
        return out;
    }

    private static Stmt stmt(JsonIn in) {
        if (in.has("for")) {
            in.onlyFields("for", "start", "end", "step", "body");
            long step = in.field("step").integer();
            if (step <= 0) {
                throw in.field("step").error("loop step must be positive: " + step);
            }
            return new Stmt.For(in.field("for").text(), affine(in.field("start")), affine(in.field("end")), step,
                    body(in.field("body")));
        }
        if (in.has("scope")) {
            in.onlyFields("scope", "kind");
            ScopeKind kind = ScopeKind.AUTO;
            if (in.has("kind")) {
                String k = in.field("kind").text();
                kind = switch (k) {
                    case "auto" -> ScopeKind.AUTO;
                    case "manual" -> ScopeKind.MANUAL;
                    default -> throw in.field("kind").error("scope kind must be \"auto\" or \"manual\", got \""
                            + k + "\"");
                };
            }
            return new Stmt.Scope(body(in.field("scope")), kind);
        }
        if (in.has("alloc")) {
            in.onlyFields("alloc", "dtype", "shape");
            DType dtype = dtype(in.field("dtype"));
            return new Stmt.Alloc(new TensorDecl(in.field("alloc").identifier(), dtype,
                    in.field("shape").shape(dtype)));
        }
        if (in.has("submit")) {
            in.onlyFields("submit", "core", "lanes", "args", "block_num", "require_sync_start", "label", "after");
            List<SubmitArg> args = new ArrayList<>();
            for (JsonIn a : in.field("args").array()) {
                args.add(arg(a));
            }
            long blocks = in.has("block_num") ? in.field("block_num").integer() : 1;
            if (blocks < 1 || blocks > Integer.MAX_VALUE) {
                throw in.field("block_num").error("block_num must be an integer in [1, " + Integer.MAX_VALUE
                        + "]: " + blocks);
            }
            List<String> after = new ArrayList<>();
            if (in.has("after")) {
                for (JsonIn a : in.field("after").array()) {
                    after.add(a.identifier());
                }
            }
            String label = in.has("label") ? in.field("label").identifier() : null;
            boolean sync = in.has("require_sync_start") && in.field("require_sync_start").bool();
            if (MIX.equals(in.field("core").text())) {
                MixedLanes lanes = lanes(in);
                if (!in.field("submit").text().equals(lanes.taskName())) {
                    throw in.field("submit").error("a mixed submit is named after its lanes joined by '+': expected \""
                            + lanes.taskName() + "\", got \"" + in.field("submit").text() + "\"");
                }
                return Stmt.Submit.mixed(lanes, args, (int) blocks, label, after, sync);
            }
            if (in.has("lanes")) {
                throw in.field("lanes").error("'lanes' belongs to a mixed submit (\"core\": \"mix\")");
            }
            return new Stmt.Submit(in.field("submit").text(), coreType(in.field("core")), args, (int) blocks,
                    label, after, sync, null);
        }
        if (in.has("read")) {
            in.onlyFields("read", "element", "max");
            long max = in.field("max").integer();
            if (max < 0) {
                throw in.field("max").error("read bound must be >= 0: " + max);
            }
            return new Stmt.Read(in.field("read").text(), tensor(in.field("element")), max);
        }
        throw in.error("expected a statement: an object with one of 'for', 'scope', 'alloc', 'read', 'submit'");
    }

    private static SubmitArg arg(JsonIn in) {
        if (in.has("index")) {
            in.onlyFields("index");
            return new SubmitArg.IndexArg(affine(in.field("index")));
        }
        if (in.has("float")) {
            in.onlyFields("float");
            return new SubmitArg.FloatArg(in.field("float").number());
        }
        for (Direction d : Direction.values()) {
            String key = d.name().toLowerCase(Locale.ROOT);
            if (in.has(key)) {
                in.onlyFields(key);
                return new SubmitArg.TensorArg(tensor(in.field(key)), d);
            }
        }
        throw in.error("expected an argument: an object with one of 'index', 'float', "
                + "'input', 'output', 'inout', 'output_existing', 'no_dep'");
    }

    private static TensorExpr tensor(JsonIn in) {
        if (in.node().isTextual()) {
            return new TensorExpr.Ref(in.text());
        }
        if (in.has("slice")) {
            in.onlyFields("slice", "starts", "extents");
            List<Affine> starts = new ArrayList<>();
            for (JsonIn s : in.field("starts").array()) {
                starts.add(affine(s));
            }
            return new TensorExpr.Slice(tensor(in.field("slice")), starts, in.field("extents").longs());
        }
        if (in.has("reshape")) {
            in.onlyFields("reshape", "shape");
            return new TensorExpr.Reshape(tensor(in.field("reshape")), in.field("shape").longs());
        }
        throw in.error("expected a tensor: a name, or an object with 'slice' or 'reshape'");
    }

    static Affine affine(JsonIn in) {
        try {
            return Affine.parse(in.text());
        } catch (IllegalArgumentException e) {
            throw in.error(e.getMessage());
        }
    }

    static DType dtype(JsonIn in) {
        try {
            return DType.fromText(in.text());
        } catch (IllegalArgumentException e) {
            throw in.error(e.getMessage());
        }
    }

    /** A mixed submit's {@code "lanes"}: {@code {"aic": k, "aiv0": k, "aiv1": k}}, at least one. */
    private static MixedLanes lanes(JsonIn in) {
        if (!in.has("lanes")) {
            throw in.error("a mixed submit (\"core\": \"mix\") needs \"lanes\": {\"aic\": kernel, \"aiv0\": kernel, "
                    + "\"aiv1\": kernel} with at least one of them");
        }
        JsonIn lanes = in.field("lanes");
        lanes.onlyFields(MixedLanes.LANE_NAMES.toArray(String[]::new));
        String[] names = new String[3];
        for (int lane = 0; lane < 3; lane++) {
            String key = MixedLanes.LANE_NAMES.get(lane);
            names[lane] = lanes.has(key) ? lanes.field(key).identifier() : null;
        }
        if (names[0] == null && names[1] == null && names[2] == null) {
            throw lanes.error("a mixed submit needs at least one of aic, aiv0, aiv1");
        }
        return new MixedLanes(names[0], names[1], names[2]);
    }

    private static CoreType coreType(JsonIn in) {
        String t = in.text();
        for (CoreType c : CoreType.values()) {
            if (c.name().toLowerCase(Locale.ROOT).equals(t)) {
                return c;
            }
        }
        throw in.error("unknown core type '" + t + "' (expected aic, aiv or mix)");
    }
}
