package dev.jpto.compiler.workdir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Layout of a work dir and of its {@code manifest.json}: the only place that knows file and field names.
 *
 * <pre>
 * WORKDIR/
 *   manifest.json            the descriptor below
 *   orchestration.json       {"program": NAME, "body": [statement...]}  (see OrchestrationCodec)
 *   kernels/NAME.pto         one kernel each, in the ISA's kernel text format
 *   ir/NN-PASS.ir            only with compile option dump_ir: the IR after each pass
 *
 * manifest.json
 * {
 *   "format":          "jpto-workdir",
 *   "format_version":  1,
 *   "program":         "vector_add",
 *   "inputs":          [{"name": "x", "dtype": "fp32", "shape": [256, 128]}, ...],
 *   "outputs":         [{"name": "z", "dtype": "fp32", "shape": [256, 128]}],
 *   "kernels":         [{"name": "add_tile", "file": "kernels/add_tile.pto"}],
 *   "orchestration":   "orchestration.json",
 *   "compile_options": {"dump_ir": "false", "passes": "verify,..."}     (optional, informational)
 * }
 * </pre>
 * A loader accepts exactly {@link #FORMAT_VERSION}; every path must be relative and resolve inside the work dir.
 */
public final class ManifestDescriptor {
    public static final String FORMAT = "jpto-workdir";
    public static final int FORMAT_VERSION = 1;

    public static final String MANIFEST_FILE = "manifest.json";
    public static final String ORCHESTRATION_FILE = "orchestration.json";
    public static final String KERNELS_DIR = "kernels";
    public static final String KERNEL_SUFFIX = ".pto";
    public static final String IR_DUMP_DIR = "ir";

    public static final String F_FORMAT = "format";
    public static final String F_FORMAT_VERSION = "format_version";
    public static final String F_PROGRAM = "program";
    public static final String F_INPUTS = "inputs";
    public static final String F_OUTPUTS = "outputs";
    public static final String F_KERNELS = "kernels";
    public static final String F_ORCHESTRATION = "orchestration";
    public static final String F_COMPILE_OPTIONS = "compile_options";
    public static final String F_NAME = "name";
    public static final String F_DTYPE = "dtype";
    public static final String F_SHAPE = "shape";
    public static final String F_FILE = "file";

    /** Fields of orchestration.json. */
    public static final String O_PROGRAM = "program";
    public static final String O_BODY = "body";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ManifestDescriptor() {
    }

    public static String kernelFile(String kernelName) {
        return KERNELS_DIR + "/" + kernelName + KERNEL_SUFFIX;
    }

    public static ObjectNode toJson(Manifest m) {
        ObjectNode o = F.objectNode();
        o.put(F_FORMAT, FORMAT);
        o.put(F_FORMAT_VERSION, m.formatVersion());
        o.put(F_PROGRAM, m.program());
        o.set(F_INPUTS, decls(m.inputs()));
        o.set(F_OUTPUTS, decls(m.outputs()));
        ArrayNode ks = o.putArray(F_KERNELS);
        for (Manifest.KernelEntry k : m.kernels()) {
            ks.addObject().put(F_NAME, k.name()).put(F_FILE, k.file());
        }
        o.put(F_ORCHESTRATION, m.orchestration());
        ObjectNode opts = o.putObject(F_COMPILE_OPTIONS);
        new TreeMap<>(m.compileOptions()).forEach(opts::put);
        return o;
    }

    private static ArrayNode decls(List<TensorDecl> decls) {
        ArrayNode a = F.arrayNode();
        for (TensorDecl d : decls) {
            a.addObject().put(F_NAME, d.name()).put(F_DTYPE, d.dtype().text())
                    .set(F_SHAPE, OrchestrationCodec.longs(d.shape()));
        }
        return a;
    }

    /** Reads a manifest; a wrong format or version, a missing or mistyped field is a {@link FormatException}. */
    public static Manifest fromJson(JsonNode root) {
        JsonIn in = new JsonIn(root, "$");
        in.onlyFields(F_FORMAT, F_FORMAT_VERSION, F_PROGRAM, F_INPUTS, F_OUTPUTS, F_KERNELS, F_ORCHESTRATION,
                F_COMPILE_OPTIONS);
        String format = in.field(F_FORMAT).text();
        if (!format.equals(FORMAT)) {
            throw in.field(F_FORMAT).error("expected \"" + FORMAT + "\", found \"" + format
                    + "\": this is not a jpto work dir manifest");
        }
        long version = in.field(F_FORMAT_VERSION).integer();
        if (version != FORMAT_VERSION) {
            throw in.field(F_FORMAT_VERSION).error("format_version " + version + " is not supported: this jpto reads "
                    + "format_version " + FORMAT_VERSION + "; recompile the program with this jpto");
        }
        List<Manifest.KernelEntry> kernels = new ArrayList<>();
        for (JsonIn k : in.field(F_KERNELS).array()) {
            k.onlyFields(F_NAME, F_FILE);
            kernels.add(new Manifest.KernelEntry(k.field(F_NAME).text(), k.field(F_FILE).text()));
        }
        TreeMap<String, String> opts = new TreeMap<>(); // optional: what the compiler was asked for, if any
        if (in.has(F_COMPILE_OPTIONS)) {
            JsonIn o = in.field(F_COMPILE_OPTIONS);
            if (!o.node().isObject()) {
                throw o.error("expected an object of option names to strings");
            }
            for (Map.Entry<String, JsonNode> e : o.node().properties()) {
                opts.put(e.getKey(), o.field(e.getKey()).text());
            }
        }
        return new Manifest((int) version, in.field(F_PROGRAM).text(), decls(in.field(F_INPUTS)),
                decls(in.field(F_OUTPUTS)), kernels, in.field(F_ORCHESTRATION).text(), opts);
    }

    private static List<TensorDecl> decls(JsonIn in) {
        List<TensorDecl> out = new ArrayList<>();
        for (JsonIn d : in.array()) {
            d.onlyFields(F_NAME, F_DTYPE, F_SHAPE);
            DType dtype = OrchestrationCodec.dtype(d.field(F_DTYPE));
            out.add(new TensorDecl(d.field(F_NAME).identifier(), dtype, d.field(F_SHAPE).shape(dtype)));
        }
        return out;
    }
}
