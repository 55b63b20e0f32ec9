package dev.jpto.compiler;

import java.util.Map;

/**
 * Options of {@link Compiler#compile}. {@code dumpIr} writes the IR after every pass to
 * {@code ir/NN-<pass>.ir} in the work dir. {@code force} lets the compile write into a non-empty directory that
 * holds no work dir ({@link WorkDirClaim}); it says where to write, not what, so the manifest does not record it.
 */
public record CompileOptions(boolean dumpIr, boolean force) {
    public static CompileOptions defaults() {
        return new CompileOptions(false, false);
    }

    public CompileOptions withDumpIr(boolean dump) {
        return new CompileOptions(dump, force);
    }

    public CompileOptions withForce(boolean overwrite) {
        return new CompileOptions(dumpIr, overwrite);
    }

    /** As recorded in the manifest's compile_options. */
    Map<String, String> asMap() {
        return Map.of("dump_ir", Boolean.toString(dumpIr));
    }
}
