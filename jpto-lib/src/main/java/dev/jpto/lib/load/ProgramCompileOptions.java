package dev.jpto.lib.load;

import dev.jpto.compiler.CompileOptions;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.runtime.Platform;

/** The compile options of a registered program: checked against a platform's on-chip buffers, with its exemption. */
public final class ProgramCompileOptions {
    private ProgramCompileOptions() {
    }

    /** {@code spec}'s program compiled for {@code platform}, its exempt kernels ({@code memoryExemption}) skipped. */
    public static CompileOptions of(ProgramSpec spec, Platform platform) {
        return CompileOptions.defaults().withPlatform(platform).withMemoryExempt(spec.memoryExemption().kernels());
    }
}
