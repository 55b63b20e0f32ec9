package dev.jpto.compiler;

import dev.jpto.runtime.Platform;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Options of {@link Compiler#compile}. {@code dumpIr} writes the IR after every pass to
 * {@code ir/NN-<pass>.ir} in the work dir. {@code force} lets the compile write into a non-empty directory that
 * holds no work dir ({@link WorkDirClaim}); it says where to write, not what, so the manifest does not record it.
 * {@code platform} is the chip whose on-chip buffers every kernel must fit ({@link OnChipMemory}), except the
 * kernels named in {@code memoryExempt} (the registry's known exceptions; empty for a user's program).
 */
public record CompileOptions(boolean dumpIr, boolean force, Platform platform, Set<String> memoryExempt) {
    public CompileOptions {
        Objects.requireNonNull(platform, "platform");
        memoryExempt = Set.copyOf(memoryExempt);
    }

    /** No IR dump, no force, checked against a2a3sim (the smaller buffers of the two chips) with no exception. */
    public static CompileOptions defaults() {
        return new CompileOptions(false, false, Platform.A2A3SIM, Set.of());
    }

    public CompileOptions withDumpIr(boolean dump) {
        return new CompileOptions(dump, force, platform, memoryExempt);
    }

    public CompileOptions withForce(boolean overwrite) {
        return new CompileOptions(dumpIr, overwrite, platform, memoryExempt);
    }

    public CompileOptions withPlatform(Platform chip) {
        return new CompileOptions(dumpIr, force, chip, memoryExempt);
    }

    public CompileOptions withMemoryExempt(Set<String> kernels) {
        return new CompileOptions(dumpIr, force, platform, kernels);
    }

    /** As recorded in the manifest's compile_options. */
    Map<String, String> asMap() {
        return Map.of("dump_ir", Boolean.toString(dumpIr));
    }
}
