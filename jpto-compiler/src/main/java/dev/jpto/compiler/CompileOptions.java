package dev.jpto.compiler;

import java.util.Map;

/**
 * Options of {@link Compiler#compile}. {@code dumpIr} writes the IR after every pass to
 * {@code ir/NN-<pass>.ir} in the work dir.
 */
public record CompileOptions(boolean dumpIr) {
    public static CompileOptions defaults() {
        return new CompileOptions(false);
    }

    public CompileOptions withDumpIr(boolean dump) {
        return new CompileOptions(dump);
    }

    /** As recorded in the manifest's compile_options. */
    Map<String, String> asMap() {
        return Map.of("dump_ir", Boolean.toString(dumpIr));
    }
}
