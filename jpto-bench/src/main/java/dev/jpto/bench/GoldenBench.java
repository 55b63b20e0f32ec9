package dev.jpto.bench;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.InputGeneration;
import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The golden of one program preset (default {@code dsv4.prefill_attention_swa pro}) computed {@code rounds} times
 * (default 4) on one set of inputs, as the runner computes it: wall and process CPU seconds of each round. The first
 * round is the cold one a fresh {@code jpto run} pays; the later ones are warm.
 *
 * <pre>java --add-modules jdk.incubator.vector -cp "target/classes:target/lib/*" dev.jpto.bench.GoldenBench \
 *     [program] [preset] [rounds]</pre>
 */
public final class GoldenBench {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean();

    private GoldenBench() {
    }

    public static void main(String[] args) {
        String program = args.length > 0 ? args[0] : "dsv4.prefill_attention_swa";
        String preset = args.length > 1 ? args[1] : "pro";
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        ProgramSpec spec = Programs.registry().get(program).spec(preset);
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> inputs = Map.copyOf(InputGeneration.inputs(spec, 0, arena));
            Map<String, Tensor> initial = InputGeneration.initialOutputs(spec, 0, arena);
            for (int round = 0; round < rounds; round++) {
                Map<String, Tensor> golden = new LinkedHashMap<>();
                for (TensorDecl d : spec.outputs()) {
                    Tensor t = Tensor.allocate(arena, d.dtype(), d.shape());
                    if (initial.containsKey(d.name())) {
                        t.copyFrom(initial.get(d.name()));
                    }
                    golden.put(d.name(), t);
                }
                long cpu0 = OS.getProcessCpuTime();
                long t0 = System.nanoTime();
                spec.golden().compute(inputs, golden);
                double wall = (System.nanoTime() - t0) / 1e9;
                double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9;
                System.out.printf(Locale.ROOT, "%s %s golden round %d: wall %.3f s, cpu %.3f s (load %.1f)%n",
                        program, preset, round, wall, cpu, OS.getSystemLoadAverage());
            }
        }
    }
}
