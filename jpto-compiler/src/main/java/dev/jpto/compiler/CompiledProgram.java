package dev.jpto.compiler;

import dev.jpto.compiler.exec.EngineInvoker;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A verified program, ready to run; from {@link Compiler#compile} or {@link #load} of a work dir. */
public final class CompiledProgram {
    private final Program program;
    private final Path workDir;
    private final EngineInvoker kernels = EngineInvoker.best();

    CompiledProgram(Program program, Path workDir) {
        this.program = program;
        this.workDir = workDir;
    }

    /**
     * Loads a work dir, validating everything: a missing or corrupt file, a format version mismatch, a path that
     * leaves the work dir, or a program that does not verify is a {@link WorkDirException} naming the file.
     */
    public static CompiledProgram load(Path workDir) {
        return WorkDirLoader.load(workDir);
    }

    public Program program() {
        return program;
    }

    public String name() {
        return program.name();
    }

    /** The work dir this program was compiled to or loaded from; empty for an in-memory compile. */
    public Optional<Path> workDir() {
        return Optional.ofNullable(workDir);
    }

    public List<TensorDecl> inputs() {
        return program.inputs();
    }

    public List<TensorDecl> outputs() {
        return program.outputs();
    }

    /** Runs this program's kernels (per worker thread, on the fastest engine available). */
    EngineInvoker kernels() {
        return kernels;
    }

    /** Runs once with {@link RunConfig#defaults()}. */
    public RunReport run(Map<String, Tensor> args) {
        return run(args, RunConfig.defaults());
    }

    /**
     * Runs once on the chip {@code config} names: {@code args} holds one tensor per input and output (outputs are
     * written in place). The CallConfig, ring fields included, comes from {@code CallConfigs.from(config)}.
     *
     * @throws IllegalArgumentException for bad arguments or an invalid config (nothing runs)
     * @throws dev.jpto.runtime.ChipRuntimeException when the run fails (e.g. HEAP_RING_DEADLOCK)
     */
    public RunReport run(Map<String, Tensor> args, RunConfig config) {
        return Dispatch.runOnce(this, args, config);
    }
}
