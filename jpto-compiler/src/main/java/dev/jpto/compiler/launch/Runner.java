package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs a verified program once: one compiled in memory or into a work dir, or loaded from a work dir (the surface
 * {@code jpto run} and {@code jpto exec} use; pypto's {@code execute_compiled}).
 */
public final class Runner {
    private Runner() {
    }

    /** Runs once with {@link RunConfig#defaults()}. */
    public static RunReport run(CompiledProgram program, Map<String, Tensor> args) {
        return run(program, args, RunConfig.defaults());
    }

    /**
     * Runs once on the chip {@code config} names: {@code args} holds one tensor per input and output (outputs are
     * written in place). The CallConfig, ring fields included, comes from {@code CallConfigs.from(config)}.
     *
     * @throws IllegalArgumentException for bad arguments or an invalid config (nothing runs)
     * @throws dev.jpto.runtime.ChipRuntimeException when the run fails (e.g. HEAP_RING_DEADLOCK)
     */
    public static RunReport run(CompiledProgram program, Map<String, Tensor> args, RunConfig config) {
        return Dispatch.runOnce(program, args, config);
    }

    /** {@link #executeCompiled(Path, Map, RunConfig)} with {@link RunConfig#defaults()}. */
    public static RunReport executeCompiled(Path workDir, Map<String, Tensor> args) {
        return executeCompiled(workDir, args, RunConfig.defaults());
    }

    /**
     * Loads {@code workDir} (every problem a {@code WorkDirException}) and runs it once with {@code config}; ring
     * sizing reaches the chip exactly as on every other surface.
     */
    public static RunReport executeCompiled(Path workDir, Map<String, Tensor> args, RunConfig config) {
        return run(CompiledProgram.load(workDir), args, config);
    }
}
