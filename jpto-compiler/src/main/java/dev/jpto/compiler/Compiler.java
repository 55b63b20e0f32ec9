package dev.jpto.compiler;

import dev.jpto.compiler.ir.IrPrinter;
import dev.jpto.compiler.ir.Pass;
import dev.jpto.compiler.ir.Passes;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.workdir.ManifestDescriptor;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;

/** Runs the pass pipeline over a program and writes the result to a work dir. */
public final class Compiler {
    private Compiler() {
    }

    /** Compiles {@code program} into {@code workDir} with default options; the result runs from memory. */
    public static CompiledProgram compile(Program program, Path workDir) {
        return compile(program, workDir, CompileOptions.defaults());
    }

    /**
     * Runs {@link Passes#standard()} (verification fails with a {@code VerificationException} listing every
     * finding), checks that every kernel fits the on-chip buffers of {@link CompileOptions#platform()}
     * ({@link OnChipMemoryException} otherwise), then writes manifest.json, kernels/*.pto and orchestration.json ({@link ManifestDescriptor}).
     * The compile owns {@code workDir}: it removes an earlier work dir's files first, and refuses a non-empty
     * directory that is not a work dir unless {@link CompileOptions#force()} ({@link WorkDirClaim}).
     */
    public static CompiledProgram compile(Program program, Path workDir, CompileOptions options) {
        Path root = workDir.toAbsolutePath().normalize();
        WorkDirClaim.claim(root, options.force());
        List<String> passNames = new ArrayList<>();
        Program lowered = lower(program, (index, pass) -> {
            if (options.dumpIr()) {
                dump(root, index, pass);
            }
        }, passNames);
        OnChipMemory.check(lowered, options.platform(), options.memoryExempt());
        WorkDirWriter.write(root, lowered, options, passNames);
        return new CompiledProgram(lowered, root);
    }

    /** Runs the passes only: the verified program, ready to run from memory (no work dir). */
    public static CompiledProgram compileInMemory(Program program) {
        return new CompiledProgram(lower(program, (index, pass) -> { }, new ArrayList<>()), null);
    }

    private record Dumped(String pass, Program program) {
    }

    private static Program lower(Program program, BiConsumer<Integer, Dumped> after, List<String> names) {
        Program p = program;
        int index = 0;
        for (Pass pass : Passes.standard()) {
            p = pass.apply().apply(p);
            names.add(pass.name());
            after.accept(++index, new Dumped(pass.name(), p));
        }
        return p;
    }

    private static void dump(Path root, int index, Dumped d) {
        Path file = root.resolve(ManifestDescriptor.IR_DUMP_DIR)
                .resolve(String.format(Locale.ROOT, "%02d-%s.ir", index, d.pass()));
        try {
            Files.createDirectories(file.getParent());
            AtomicFile.writeString(file, IrPrinter.print(d.program()));
        } catch (IOException e) {
            throw new WorkDirException(file, "cannot write the IR dump: " + e.getMessage(), e);
        }
    }
}
