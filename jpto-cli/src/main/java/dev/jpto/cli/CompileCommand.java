package dev.jpto.cli;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.CompileOptions;
import dev.jpto.compiler.OnChipMemory;
import dev.jpto.compiler.WorkDirClaim;
import dev.jpto.compiler.ir.Program;
import dev.jpto.lib.load.ProgramCompileOptions;
import dev.jpto.lib.registry.MemoryExemption;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.DefaultRuntimeCfg;
import dev.jpto.lib.runner.OutputDir;
import dev.jpto.runtime.Platform;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jpto compile PROGRAM -o WORKDIR}: writes the work dir that {@code jpto exec} runs. */
@Command(name = "compile", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compile a program at a preset into a work dir (manifest.json, kernels/*.pto, orchestration).")
final class CompileCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Spec
    CommandSpec commandSpec;

    @Mixin
    ProgramOptions program = new ProgramOptions();

    @Option(names = {"-o", "--output"}, paramLabel = "WORKDIR", required = true, description = "the work dir to write")
    Path workDir;

    @Option(names = "--dump-ir", description = "also write the IR after every pass to WORKDIR/ir/NN-<pass>.ir")
    boolean dumpIr;

    @Option(names = {"-p", "--platform"}, paramLabel = "PLATFORM", defaultValue = "a2a3sim",
            converter = PlatformConverter.class,
            description = "the chip whose on-chip buffers every kernel must fit: a2a3sim, a5sim, a2a3, a5; "
                    + "default ${DEFAULT-VALUE}")
    Platform platform;

    @Option(names = "--memory-map", description = "print where each kernel's tiles are placed in its core's on-chip "
            + "buffers (UB; L1, L0A, L0B, L0C) and how full each is")
    boolean memoryMap;

    @Option(names = "--force", description = "write into WORKDIR even if it is not empty and holds no work dir "
            + "(only jpto's own file names are replaced; other files stay)")
    boolean force;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("compile", top.err, verbose, () -> {
            ProgramSpec spec = program.spec(top);
            // before the lock: a refused directory gets no lock file
            OutputDir.requireWritable("-o", workDir);
            WorkDirClaim.check(workDir, force);
            return OutputDirLock.holding(workDir, "-o", commandSpec, () -> compile(spec));
        });
    }

    private int compile(ProgramSpec spec) {
        long start = System.nanoTime();
        CompileOptions options = ProgramCompileOptions.of(spec, platform).withDumpIr(dumpIr).withForce(force);
        if (memoryMap) {
            printMemoryMap(spec);
        }
        String what = switch (spec.body()) {
            case ProgramSpec.Body.Chip c -> {
                Compiler.compile(c.program(), workDir, options);
                yield c.program().kernels().size() + " kernel(s)";
            }
            case ProgramSpec.Body.L3 l -> {
                CompiledL3Program.compile(l.program(), workDir, options);
                yield "L3: " + l.program().calls().size() + " chip call(s), chip programs "
                        + l.program().chipPrograms().keySet() + " under chips/, host orchestration l3.json";
            }
        };
        top.out.println(String.format(Locale.ROOT, "[RUN] compile (%.3fs) %s preset=%s platform=%s, %s → %s",
                (System.nanoTime() - start) / 1e9, spec.programName(), spec.preset(), platform.text(), what,
                workDir.toAbsolutePath().normalize()));
        DefaultRuntimeCfg.write(workDir, spec.runtimeCfg());
        if (!spec.runtimeCfg().isEmpty()) {
            top.out.println("[RUN] this program's default runtime_cfg " + spec.runtimeCfg() + " is saved in "
                    + DefaultRuntimeCfg.FILE + ": 'jpto exec' applies it (--runtime-cfg entries override it)");
        }
        return ExitCodes.PASS;
    }

    /** Before the check, so a kernel that does not fit is shown with the rest; exempt kernels are marked. */
    private void printMemoryMap(ProgramSpec spec) {
        List<Program> programs = switch (spec.body()) {
            case ProgramSpec.Body.Chip c -> List.of(c.program());
            case ProgramSpec.Body.L3 l -> List.copyOf(l.program().chipPrograms().values());
        };
        for (Program p : programs) {
            top.out.print(OnChipMemory.map(OnChipMemory.place(p, platform), platform));
        }
        MemoryExemption exempt = spec.memoryExemption();
        if (!exempt.isEmpty()) {
            top.out.println("[MEM] exempt from the check (" + exempt.reason() + "): " + new TreeSet<>(exempt.kernels()));
        }
    }
}
