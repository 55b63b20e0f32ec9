package dev.jpto.compiler.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.l3.Placement;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every way a user can run a verified program, each used as a caller would. A surface returns the report of every
 * chip run it made (the L3 surfaces make several), so a contract can check each chip's rings.
 */
enum RunSurface {
    /** {@code Runner.run} of an in-memory compile. */
    RUN {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            return List.of(Runner.run(Compiler.compileInMemory(p), args, c));
        }
    },
    /** Compile to a work dir, then {@code Runner.executeCompiled}: the WorkDirLoader path of {@code jpto exec}. */
    EXEC {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            Path wd = tmp.resolve("exec-" + p.name());
            Compiler.compile(p, wd);
            return List.of(Runner.executeCompiled(wd, args, c));
        }
    },
    CHIP_WORKER {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            try (ChipWorker w = ChipWorker.open(c)) {
                return List.of(w.run(Compiler.compileInMemory(p), args, c));
            }
        }
    },
    BENCHMARK {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            BenchmarkResult r = Benchmark.run(Compiler.compileInMemory(p), args, c, 2);
            assertThat(r.rounds()).isEqualTo(2);
            assertThat(r.minUs()).isPositive().isLessThanOrEqualTo(r.medianUs());
            assertThat(r.maxUs()).isGreaterThanOrEqualTo(r.meanUs());
            return List.of(r.last());
        }
    },
    /** Empty kernel bodies on placeholder tensors: rings and errors as a real run, outputs meaningless. */
    DRY_RUN {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            return List.of(DryRun.run(Compiler.compileInMemory(p), c));
        }

        @Override
        boolean computes() {
            return false;
        }
    },
    /** enable_dep_gen on; the graph must be written next to the other DFX output. */
    DEPENDENCY_CAPTURE {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            CompiledProgram compiled = Compiler.compile(p, tmp.resolve("capture-" + p.name()));
            RunReport r = DependencyCapture.capture(compiled, args, c);
            Path deps = Path.of(DependencyCapture.captureConfig(compiled, c).outputPrefix()).resolve("deps.json");
            assertThat(r.dfxFiles()).contains(deps);
            try {
                JsonNode graph = JSON.readTree(deps.toFile());
                assertThat(graph.get("tasks").size()).isEqualTo((int) r.tasksExecuted());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return List.of(r);
        }
    },
    /** {@code DistributedRunner.run(jobs, config)}: the caller's tensors on chip 0, a copy on chip 1. */
    JOBS {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            CompiledProgram compiled = Compiler.compileInMemory(p);
            try (Arena arena = Arena.ofShared()) {
                Map<String, Tensor> copy = copyOf(args, arena);
                List<RunReport> reports = DistributedRunner.run(List.of(new DistributedRunner.Job(compiled, args),
                        new DistributedRunner.Job(compiled, copy)), c);
                assertSameOutputs(p, args, copy);
                return reports;
            }
        }
    },
    /** The program as the one call of an L3 program on one chip, compiled in memory. */
    L3_SINGLE {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            L3Report r = DistributedRunner.run(wrap(p, 1), args, c, 1);
            return r.calls().stream().map(L3Report.Call::report).toList();
        }
    },
    /**
     * An L3 program compiled to a work dir and loaded back, on two chips: chip 0 writes a scratch copy of every
     * output, chip 1 the caller's outputs.
     */
    L3_DISTRIBUTED {
        @Override
        List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
            Path wd = tmp.resolve("l3-" + p.name());
            CompiledL3Program.compile(wrap(p, 2), wd);
            L3Report r = DistributedRunner.run(CompiledL3Program.load(wd), args, c);
            assertThat(r.calls()).extracting(L3Report.Call::deviceId)
                    .containsExactlyInAnyOrder(c.deviceId(), c.deviceId() + 1);
            return r.calls().stream().map(L3Report.Call::report).toList();
        }
    };

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Runs {@code p} once (or its rounds) with {@code c}; {@code args} holds every input and output. */
    abstract List<RunReport> run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp);

    /** Whether the run computes the outputs (a dry run does not). */
    boolean computes() {
        return true;
    }

    /**
     * {@code p} as an L3 program on {@code chips} chips: host tensors named like its signature, and one call per
     * chip; all but the last write scratch copies of the outputs, the last writes the outputs.
     */
    private static L3Program wrap(Program p, int chips) {
        L3Program.Builder l3 = L3Program.builder("l3_" + p.name()).chips(chips);
        Map<String, HostTensor> inputs = new LinkedHashMap<>();
        for (TensorDecl d : p.inputs()) {
            inputs.put(d.name(), l3.input(d.name(), d.dtype(), d.shape()));
        }
        for (int chip = 0; chip < chips; chip++) {
            Map<String, HostTensor> bindings = new HashMap<>(inputs);
            for (TensorDecl d : p.outputs()) {
                bindings.put(d.name(), chip == chips - 1 ? l3.output(d.name(), d.dtype(), d.shape())
                        : l3.scratch(d.name() + "_on_chip" + chip, d.dtype(), d.shape()));
            }
            l3.call("call" + chip, p, bindings, Placement.chip(chip));
        }
        return l3.build();
    }

    private static Map<String, Tensor> copyOf(Map<String, Tensor> args, Arena arena) {
        Map<String, Tensor> copy = new HashMap<>();
        for (Map.Entry<String, Tensor> e : args.entrySet()) {
            Tensor t = Tensor.allocate(arena, e.getValue().dtype(), e.getValue().shape());
            t.copyFrom(e.getValue());
            copy.put(e.getKey(), t);
        }
        return copy;
    }

    private static void assertSameOutputs(Program p, Map<String, Tensor> a, Map<String, Tensor> b) {
        for (TensorDecl out : p.outputs()) {
            assertThat(b.get(out.name()).toDoubleArray()).as("output %s on both chips", out.name())
                    .containsExactly(a.get(out.name()).toDoubleArray());
        }
    }
}
