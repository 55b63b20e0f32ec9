package dev.jpto.lib.runner;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompileOptions;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.launch.DistributedRunner;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.load.ProgramCompileOptions;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the golden runner compiles and runs: a chip program on one chip, or an L3 program on several chips
 * ({@code DistributedRunner}). Both are compiled to a work dir and loaded back from it, the normal path.
 */
sealed interface RunTarget {
    /** One correctness run: the chip's report (the aggregate for L3) and, for L3, the per-device report. */
    record Ran(RunReport report, Optional<L3Report> l3) {
    }

    /**
     * Compiles {@code spec}'s program for {@code platform} into {@code workDir} and loads it; {@code chips} 0 = the
     * program's default.
     */
    static RunTarget compile(ProgramSpec spec, Platform platform, Path workDir, int chips) {
        CompileOptions options = ProgramCompileOptions.of(spec, platform);
        return switch (spec.body()) {
            case ProgramSpec.Body.Chip c -> {
                Compiler.compile(c.program(), workDir, options);
                yield new Chip(CompiledProgram.load(workDir));
            }
            case ProgramSpec.Body.L3 l -> {
                CompiledL3Program.compile(l.program(), workDir, options);
                yield new L3(CompiledL3Program.load(workDir), chips > 0 ? chips : l.program().chips());
            }
        };
    }

    /** What was compiled, for the compile stage's line. */
    String summary();

    Ran run(Map<String, Tensor> args, RunConfig config);

    BenchmarkResult bench(Map<String, Tensor> args, RunConfig config, int rounds, Progress progress);

    /** A chip program. */
    record Chip(CompiledProgram program) implements RunTarget {
        @Override
        public String summary() {
            return program.program().kernels().size() + " kernel(s)";
        }

        @Override
        public Ran run(Map<String, Tensor> args, RunConfig config) {
            return new Ran(Runner.run(program, args, config), Optional.empty());
        }

        @Override
        public BenchmarkResult bench(Map<String, Tensor> args, RunConfig config, int rounds, Progress progress) {
            return BenchLoop.run(program, args, config, rounds, progress);
        }
    }

    /** An L3 program on {@code chips} chips. */
    record L3(CompiledL3Program program, int chips) implements RunTarget {
        @Override
        public String summary() {
            L3Program p = program.program();
            int kernels = p.chipPrograms().values().stream().mapToInt((Program x) -> x.kernels().size()).sum();
            return "L3: " + p.calls().size() + " chip call(s) of " + p.chipPrograms().size() + " chip program(s), "
                    + kernels + " kernel(s), on " + chips + " chip(s)";
        }

        @Override
        public Ran run(Map<String, Tensor> args, RunConfig config) {
            L3Report r = DistributedRunner.run(program, args, config, chips);
            return new Ran(r.aggregate(), Optional.of(r));
        }

        @Override
        public BenchmarkResult bench(Map<String, Tensor> args, RunConfig config, int rounds, Progress progress) {
            return BenchLoop.runL3(program, chips, args, config, rounds, progress);
        }
    }
}
