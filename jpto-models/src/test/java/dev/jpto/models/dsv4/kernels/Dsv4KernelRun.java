package dev.jpto.models.dsv4.kernels;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4Golden;
import dev.jpto.models.dsv4.Dsv4GoldenResult;
import dev.jpto.models.dsv4.Dsv4Inputs;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import dev.jpto.models.dsv4.Dsv4Signature;
import dev.jpto.models.dsv4.Dsv4Validation;
import dev.jpto.models.dsv4.TensorSpec;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test harness: inputs → golden → compiled program on the chip → the spec's checks. */
record Dsv4KernelRun(Map<String, Tensor> actual, Dsv4GoldenResult golden, RunReport report, List<String> failures,
                     Dsv4Validation.ShareResult share, Dsv4Validation.RatioResult xOut) {

    static Dsv4KernelRun run(Dsv4Program prog, Dsv4Preset preset, Dsv4Faults faults, RunConfig cfg, Arena arena) {
        Dsv4Signature sig = Dsv4Signature.of(prog, preset);
        Map<String, Tensor> in = Dsv4Inputs.generate(sig, 7, arena);
        Dsv4GoldenResult golden = Dsv4Golden.run(prog, preset, in, arena);
        Map<String, Tensor> args = new LinkedHashMap<>();
        for (TensorSpec s : sig.tensors()) {
            Tensor src = in.get(s.name());
            if (s.direction() == TensorSpec.Direction.IN) {
                args.put(s.name(), src);
            } else {
                Tensor copy = Tensor.allocate(arena, src.dtype(), src.shape());
                copy.copyFrom(src);
                args.put(s.name(), copy);
            }
        }
        CompiledProgram compiled = Compiler.compileInMemory(Dsv4Kernels.build(prog, preset, faults));
        RunReport report = Runner.run(compiled, args, cfg);
        List<String> failures = new ArrayList<>();
        int nt = preset.numTokens();
        double[] thr = Dsv4Validation.xOutThresholds(prog, preset.startPos());
        Dsv4Validation.RatioResult x = Dsv4Validation.ratioReldiff(args.get("x_out"), golden.expected("x_out"),
                thr[0], thr[1], thr[2], nt);
        if (!x.pass()) {
            failures.add("x_out: " + x.reason());
        }
        for (TensorSpec s : sig.validated()) {
            if (s.name().equals("x_out")) {
                continue;
            }
            Dsv4Validation.PoolTolerance tol = Dsv4Validation.poolTolerance(prog, s.name());
            Dsv4Validation.PoolResult r = Dsv4Validation.mappedPool(args.get(s.name()), golden.expected(s.name()),
                    in.get(tol.mapping()), nt, tol);
            if (!r.pass()) {
                failures.add(s.name() + ": " + r.reason());
            }
        }
        Dsv4Validation.ShareResult share = Dsv4Validation.attentionShare(args.get("x_out"), golden, nt);
        if (!share.pass()) {
            failures.add("attention share: relL2=" + share.relL2() + " gain=" + share.gain());
        }
        return new Dsv4KernelRun(args, golden, report, failures, share, x);
    }
}
