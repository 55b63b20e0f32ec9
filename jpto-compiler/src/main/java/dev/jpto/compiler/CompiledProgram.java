package dev.jpto.compiler;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A verified program — kernels, orchestration and signature — from {@link Compiler#compile} or {@link #load} of a
 * work dir. It is data: the surfaces that run it live in {@code dev.jpto.compiler.launch} (e.g.
 * {@code Runner.run(compiled, args, config)}).
 */
public final class CompiledProgram {
    private final Program program;
    private final Path workDir;

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
}
