package dev.jpto.compiler;

import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.nio.file.Path;
import java.util.Map;

/** Runs a work dir (the surface {@code jpto exec} uses; pypto's {@code execute_compiled}). */
public final class Runner {
    private Runner() {
    }

    /** {@link #executeCompiled(Path, Map, RunConfig)} with {@link RunConfig#defaults()}. */
    public static RunReport executeCompiled(Path workDir, Map<String, Tensor> args) {
        return executeCompiled(workDir, args, RunConfig.defaults());
    }

    /**
     * Loads {@code workDir} (every problem a {@link WorkDirException}) and runs it once with {@code config}; ring
     * sizing reaches the chip exactly as on every other surface.
     */
    public static RunReport executeCompiled(Path workDir, Map<String, Tensor> args, RunConfig config) {
        return CompiledProgram.load(workDir).run(args, config);
    }
}
