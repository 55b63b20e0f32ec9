package dev.jpto.compiler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.workdir.FormatException;
import dev.jpto.compiler.workdir.L3Descriptor;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes and loads L3 work dirs ({@link L3Descriptor}): one chip work dir per chip program under {@code chips/},
 * and the host orchestration {@code l3.json}, written last. Loading applies the chip work-dir rules to every chip
 * directory (data only, every path inside the work dir) and rebuilds the program through its builder.
 */
final class L3WorkDir {
    private L3WorkDir() {
    }

    /**
     * Whether {@code workDir} has an {@code l3.json} of any kind: one that is a FIFO, a directory or a link is then
     * refused by {@link #load} for what it is, not taken for a chip work dir with a missing manifest.
     */
    static boolean isL3(Path workDir) {
        return Files.exists(workDir.resolve(L3Descriptor.L3_FILE), LinkOption.NOFOLLOW_LINKS);
    }

    static CompiledL3Program write(L3Program program, Path workDir, CompileOptions options) {
        Path root = workDir.toAbsolutePath().normalize();
        Path descriptor = root.resolve(L3Descriptor.L3_FILE);
        WorkDirClaim.claim(root, options.force()); // removes the old l3.json first: a half-written dir never loads
        Map<String, CompiledProgram> chips = new LinkedHashMap<>();
        program.chipPrograms().forEach((name, p) ->
                chips.put(name, Compiler.compile(p, root.resolve(L3Descriptor.chipDir(name)), options)));
        try {
            AtomicFile.writeString(descriptor,
                    WorkDirWriter.JSON.writeValueAsString(L3Descriptor.toJson(program)) + "\n");
        } catch (IOException e) {
            throw new WorkDirException(descriptor, "cannot write: " + e.getMessage(), e);
        }
        return new CompiledL3Program(program, chips, root);
    }

    static CompiledL3Program load(Path workDir) {
        Path root = workDir.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new WorkDirException(root, Files.exists(root) ? "is not a directory: expected an L3 work dir written"
                    + " by jpto compile" : "does not exist: expected an L3 work dir written by jpto compile");
        }
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            throw new WorkDirException(root, "cannot resolve the work dir: " + e.getMessage(), e);
        }
        Path file = root.resolve(L3Descriptor.L3_FILE);
        JsonNode json = WorkDirLoader.readJson(root, file, "the L3 work dir's host orchestration (was an L3 program "
                + "compiled into this directory?)");
        try {
            Map<String, CompiledProgram> chips = new LinkedHashMap<>();
            Map<String, Program> programs = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : L3Descriptor.chipDirs(json).entrySet()) {
                Path dir = WorkDirLoader.inside(root, realRoot, file, "$.chip_programs." + e.getKey(), e.getValue());
                CompiledProgram p = WorkDirLoader.load(dir);
                if (!p.name().equals(e.getKey())) {
                    throw new WorkDirException(dir, "holds chip program '" + p.name() + "' but "
                            + L3Descriptor.L3_FILE + " lists it as '" + e.getKey() + "'");
                }
                chips.put(e.getKey(), p);
                programs.put(e.getKey(), p.program());
            }
            return new CompiledL3Program(L3Descriptor.fromJson(json, programs), chips, root);
        } catch (FormatException e) {
            throw new WorkDirException(file, e.getMessage(), e);
        }
    }
}
