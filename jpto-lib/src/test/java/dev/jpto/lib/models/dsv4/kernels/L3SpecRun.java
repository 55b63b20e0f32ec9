package dev.jpto.lib.models.dsv4.kernels;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.DistributedRunner;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.ProgramSpec;
import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Map;

/** Test harness for an L3 spec: generate inputs, golden, run on {@code chips} chips, every comparator. */
record L3SpecRun(L3Report report, Map<String, CompareResult> results) {

    static L3SpecRun run(ProgramSpec spec, int chips, long seed, Arena arena) {
        L3Program program = spec.l3().orElseThrow();
        Map<String, Tensor> in = new LinkedHashMap<>();
        for (InputSpec s : spec.inputs()) {
            Tensor t = Tensor.allocate(arena, s.dtype(), s.shape());
            s.fill().fill(t, s.name(), seed);
            in.put(s.name(), t);
        }
        Map<String, Tensor> actual = new LinkedHashMap<>();
        Map<String, Tensor> expected = new LinkedHashMap<>();
        for (HostTensor h : program.outputs()) {
            actual.put(h.name(), Tensor.allocate(arena, h.dtype(), h.shape()));
            expected.put(h.name(), Tensor.allocate(arena, h.dtype(), h.shape()));
        }
        spec.golden().compute(in, expected);
        Map<String, Tensor> args = new LinkedHashMap<>(in);
        args.putAll(actual);
        RunConfig cfg = RunConfig.fromMap(spec.runtimeCfg());
        L3Report report = DistributedRunner.run(CompiledL3Program.compile(program), args, cfg, chips);
        CompareContext ctx = new CompareContext(actual, expected, in);
        Map<String, CompareResult> results = new LinkedHashMap<>();
        spec.comparators().forEach((name, c) -> results.put(name, c.compare(actual.get(name), expected.get(name),
                ctx)));
        return new L3SpecRun(report, results);
    }
}
