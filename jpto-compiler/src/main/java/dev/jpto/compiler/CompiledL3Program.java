package dev.jpto.compiler;

import dev.jpto.compiler.l3.L3Program;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An L3 program whose chip programs are compiled: from {@link #compile} or {@link #load} of an L3 work dir. It is
 * data: {@code dev.jpto.compiler.launch.DistributedRunner} runs it.
 */
public final class CompiledL3Program {
    private final L3Program program;
    private final Map<String, CompiledProgram> chipPrograms;
    private final Path workDir;

    CompiledL3Program(L3Program program, Map<String, CompiledProgram> chipPrograms, Path workDir) {
        this.program = program;
        this.chipPrograms = Collections.unmodifiableMap(new LinkedHashMap<>(chipPrograms));
        this.workDir = workDir;
    }

    /** Compiles every chip program in memory (no work dir). */
    public static CompiledL3Program compile(L3Program program) {
        Map<String, CompiledProgram> compiled = new LinkedHashMap<>();
        program.chipPrograms().forEach((name, p) -> compiled.put(name, Compiler.compileInMemory(p)));
        return new CompiledL3Program(program, compiled, null);
    }

    /**
     * Compiles every chip program into {@code workDir/chips/NAME} and writes the host orchestration
     * {@code workDir/l3.json} ({@link dev.jpto.compiler.workdir.L3Descriptor}); the result runs from memory.
     */
    public static CompiledL3Program compile(L3Program program, Path workDir) {
        return compile(program, workDir, CompileOptions.defaults());
    }

    public static CompiledL3Program compile(L3Program program, Path workDir, CompileOptions options) {
        return L3WorkDir.write(program, workDir, options);
    }

    /**
     * Loads an L3 work dir, validating everything as {@link CompiledProgram#load} does for each chip program,
     * and the host orchestration against them: any problem is a {@link WorkDirException} naming the file.
     */
    public static CompiledL3Program load(Path workDir) {
        return L3WorkDir.load(workDir);
    }

    /** Whether {@code workDir} holds an L3 program (an {@code l3.json}) rather than a chip program. */
    public static boolean isL3WorkDir(Path workDir) {
        return L3WorkDir.isL3(workDir);
    }

    public L3Program program() {
        return program;
    }

    public String name() {
        return program.name();
    }

    /** Each chip program, compiled, by name. */
    public Map<String, CompiledProgram> chipPrograms() {
        return chipPrograms;
    }

    /** The work dir this program was compiled to or loaded from; empty for an in-memory compile. */
    public Optional<Path> workDir() {
        return Optional.ofNullable(workDir);
    }
}
