package dev.jpto.compiler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.workdir.Manifest;
import dev.jpto.compiler.workdir.ManifestDescriptor;
import dev.jpto.compiler.workdir.OrchestrationCodec;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelText;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a verified program to a work dir, every file atomically; the manifest goes last, so a half-written dir
 * never loads.
 */
final class WorkDirWriter {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private WorkDirWriter() {
    }

    static void write(Path root, Program program, CompileOptions options, List<String> passNames) {
        Path manifestFile = root.resolve(ManifestDescriptor.MANIFEST_FILE);
        try {
            Files.createDirectories(root.resolve(ManifestDescriptor.KERNELS_DIR));
            Files.deleteIfExists(manifestFile);
        } catch (IOException e) {
            throw new WorkDirException(root, "cannot prepare the work dir: " + e.getMessage(), e);
        }
        List<Manifest.KernelEntry> kernels = new ArrayList<>();
        for (Kernel k : program.kernels()) {
            String rel = ManifestDescriptor.kernelFile(k.name());
            writeText(root.resolve(rel), KernelText.print(k));
            kernels.add(new Manifest.KernelEntry(k.name(), rel));
        }
        ObjectNode orch = JSON.createObjectNode();
        orch.put(ManifestDescriptor.O_PROGRAM, program.name());
        orch.set(ManifestDescriptor.O_BODY, OrchestrationCodec.encodeBody(program.body()));
        writeText(root.resolve(ManifestDescriptor.ORCHESTRATION_FILE), json(orch));
        Map<String, String> opts = new HashMap<>(options.asMap());
        opts.put("passes", String.join(",", passNames));
        Manifest m = new Manifest(ManifestDescriptor.FORMAT_VERSION, program.name(), program.inputs(),
                program.outputs(), kernels, ManifestDescriptor.ORCHESTRATION_FILE, opts);
        writeText(manifestFile, json(ManifestDescriptor.toJson(m)));
    }

    private static String json(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("JSON tree cannot be serialised", e);
        }
    }

    private static void writeText(Path file, String text) {
        try {
            AtomicFile.writeString(file, text);
        } catch (IOException e) {
            throw new WorkDirException(file, "cannot write: " + e.getMessage(), e);
        }
    }
}
