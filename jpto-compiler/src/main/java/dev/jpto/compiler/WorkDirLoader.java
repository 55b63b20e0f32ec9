package dev.jpto.compiler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.compiler.ir.IrError;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.compiler.workdir.FormatException;
import dev.jpto.compiler.workdir.Manifest;
import dev.jpto.compiler.workdir.ManifestDescriptor;
import dev.jpto.compiler.workdir.OrchestrationCodec;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelText;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads and validates a work dir. A work dir is data: only the files the manifest names are read, every such
 * path must stay inside the directory (also after resolving symbolic links) and name a regular file of at most
 * {@link DataFiles#MAX_TEXT_BYTES} (checked before opening it: a FIFO never blocks), and nothing is executed.
 * Each failure is a {@link WorkDirException} naming the file and what was expected of it.
 */
final class WorkDirLoader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private WorkDirLoader() {
    }

    static CompiledProgram load(Path workDir) {
        Path root = workDir.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new WorkDirException(root, Files.exists(root) ? "is not a directory: expected a work dir written by "
                    + "jpto compile" : "does not exist: expected a work dir written by jpto compile");
        }
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            throw new WorkDirException(root, "cannot resolve the work dir: " + e.getMessage(), e);
        }
        Path manifestFile = root.resolve(ManifestDescriptor.MANIFEST_FILE);
        if (!Files.exists(manifestFile) && L3WorkDir.isL3(root)) {
            throw new WorkDirException(root, "is an L3 work dir (" + dev.jpto.compiler.workdir.L3Descriptor.L3_FILE
                    + ", chip programs under chips/): load it with CompiledL3Program.load and run it with "
                    + "DistributedRunner ('jpto exec' does both)");
        }
        JsonNode manifestJson = readJson(root, manifestFile, "the work dir's manifest (was a program compiled into "
                + "this directory?)");
        Manifest m;
        try {
            m = ManifestDescriptor.fromJson(manifestJson);
        } catch (FormatException e) {
            throw new WorkDirException(manifestFile, e.getMessage(), e);
        }

        List<Kernel> kernels = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < m.kernels().size(); i++) {
            Manifest.KernelEntry entry = m.kernels().get(i);
            if (!names.add(entry.name())) {
                throw new WorkDirException(manifestFile, "at $.kernels[" + i + "]: kernel '" + entry.name()
                        + "' is listed twice");
            }
            Path file = inside(root, realRoot, manifestFile, "$.kernels[" + i + "].file", entry.file());
            String text = readText(root, file, "kernel '" + entry.name() + "' listed in "
                    + ManifestDescriptor.MANIFEST_FILE);
            Kernel k;
            try {
                k = KernelText.parse(text);
            } catch (RuntimeException e) {
                throw new WorkDirException(file, "is not a valid kernel in the ISA text format: " + e.getMessage(), e);
            }
            if (!k.name().equals(entry.name())) {
                throw new WorkDirException(file, "holds kernel '" + k.name() + "' but " + ManifestDescriptor.MANIFEST_FILE
                        + " lists it as kernel '" + entry.name() + "'");
            }
            kernels.add(k);
        }

        Path orchFile = inside(root, realRoot, manifestFile, "$." + ManifestDescriptor.F_ORCHESTRATION,
                m.orchestration());
        JsonNode orchJson = readJson(root, orchFile, "the orchestration named in " + ManifestDescriptor.MANIFEST_FILE);
        List<Stmt> body;
        try {
            if (!orchJson.isObject()) {
                throw new FormatException("$", "expected an object with fields 'program' and 'body'");
            }
            JsonNode name = orchJson.get(ManifestDescriptor.O_PROGRAM);
            if (name == null || !name.isTextual() || !name.textValue().equals(m.program())) {
                throw new FormatException("$.program", "expected \"" + m.program() + "\" (the manifest's program), "
                        + "found " + name);
            }
            JsonNode b = orchJson.get(ManifestDescriptor.O_BODY);
            if (b == null) {
                throw new FormatException("$", "missing field 'body'");
            }
            body = OrchestrationCodec.decodeBody(b, "$.body");
        } catch (FormatException e) {
            throw new WorkDirException(orchFile, e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new WorkDirException(orchFile, "is not a valid orchestration: " + e.getMessage(), e);
        }

        Program program;
        try {
            program = new Program(m.program(), m.inputs(), m.outputs(), kernels, body);
        } catch (IllegalArgumentException e) {
            throw new WorkDirException(manifestFile, e.getMessage(), e);
        }
        List<IrError> errors = Verifier.check(program);
        if (!errors.isEmpty()) {
            StringBuilder sb = new StringBuilder("the program described by " + ManifestDescriptor.MANIFEST_FILE
                    + " and this file does not verify (was either edited?):");
            for (IrError err : errors) {
                sb.append("\n  ").append(err.where()).append(": ").append(err.what());
            }
            throw new WorkDirException(orchFile, sb.toString());
        }
        return new CompiledProgram(program, root);
    }

    /** Resolves a manifest path, refusing anything that leaves the work dir. */
    static Path inside(Path root, Path realRoot, Path manifestFile, String field, String rel) {
        if (rel.isEmpty() || rel.contains("\\") || rel.indexOf('\0') >= 0) {
            throw new WorkDirException(manifestFile, "at " + field + ": '" + rel + "' is not a relative path with '/' "
                    + "separators inside the work dir");
        }
        Path relPath;
        try {
            relPath = Path.of(rel);
        } catch (RuntimeException e) {
            throw new WorkDirException(manifestFile, "at " + field + ": '" + rel + "' is not a valid path", e);
        }
        Path resolved = root.resolve(relPath).normalize();
        if (relPath.isAbsolute() || !resolved.startsWith(root) || resolved.equals(root)) {
            throw new WorkDirException(manifestFile, "at " + field + ": path '" + rel + "' resolves to " + resolved
                    + ", outside the work dir " + root + "; a work dir is data and may only name its own files");
        }
        if (Files.exists(resolved)) {
            try {
                Path real = resolved.toRealPath();
                if (!real.startsWith(realRoot)) {
                    throw new WorkDirException(manifestFile, "at " + field + ": path '" + rel + "' is a link to " + real
                            + ", outside the work dir " + realRoot + "; a work dir is data and may only name its own files");
                }
            } catch (IOException e) {
                throw new WorkDirException(resolved, "cannot resolve: " + e.getMessage(), e);
            }
        }
        return resolved;
    }

    /**
     * The UTF-8 text of a file of the work dir {@code root} ({@link DataFiles#readUtf8}: inside the work dir, a
     * regular file, at most {@link DataFiles#MAX_TEXT_BYTES}, a leading byte order mark dropped).
     */
    private static String readText(Path root, Path file, String expected) {
        try {
            return DataFiles.readUtf8(root, file, DataFiles.MAX_TEXT_BYTES, expected);
        } catch (DataFileException e) {
            throw new WorkDirException(e.file(), e.reason(), e);
        } catch (NoSuchFileException e) {
            throw new WorkDirException(file, "is missing: expected " + expected, e);
        } catch (CharacterCodingException e) {
            throw new WorkDirException(file, "is not UTF-8 text: expected " + expected, e);
        } catch (IOException e) {
            throw new WorkDirException(file, "cannot be read (" + e.getMessage() + "): expected " + expected, e);
        }
    }

    static JsonNode readJson(Path root, Path file, String expected) {
        String text = readText(root, file, expected);
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new WorkDirException(file, "is empty: expected " + expected + " as JSON");
            }
            return node;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            throw new WorkDirException(file, "is not valid JSON" + where + " (" + e.getOriginalMessage()
                    + "): expected " + expected, e);
        }
    }
}
