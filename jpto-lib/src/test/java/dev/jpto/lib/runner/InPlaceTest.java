package dev.jpto.lib.runner;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.npy.Npy;
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.NotValidated;
import dev.jpto.lib.registry.ProgramSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs updated in place start from their fill (chip and golden alike); scratch outputs are skipped. */
class InPlaceTest {
    /** acc += x over [64, 64] in one task; scratch = x copied, not validated. */
    static Program accumulate() {
        KernelBuilder k = KernelBuilder.kernel("acc_add");
        KTensor x = k.input("x", FP32, 2);
        KTensor acc = k.inout("acc", FP32, 2);
        KTensor scratch = k.output("scratch", FP32, 2);
        KTile a = k.tile("a", FP32, 64, 64);
        KTile b = k.tile("b", FP32, 64, 64);
        k.load(a, acc, 0, 0).load(b, x, 0, 0).store(b, scratch, 0, 0).add(a, a, b).store(a, acc, 0, 0);
        ProgramBuilder p = ProgramBuilder.program("accumulate");
        TensorVar xs = p.input("x", FP32, 64, 64);
        TensorVar accs = p.output("acc", FP32, 64, 64);
        TensorVar ss = p.output("scratch", FP32, 64, 64);
        KernelRef add = p.aiv(k.build());
        p.orchestrate(o -> o.submit(add, in(xs), inout(accs), outExisting(ss)));
        return p.build();
    }

    static ProgramSpec spec() {
        return new ProgramSpec("test.accumulate", "tiny", accumulate(),
                List.of(InputSpec.of("x", FP32, new long[] {64, 64}, new Init.Uniform(-1, 1))),
                (in, out) -> {
                    Tensor x = in.get("x");
                    Tensor acc = out.get("acc");
                    for (long i = 0; i < acc.numel(); i++) {
                        acc.setDouble(i, acc.getDouble(i) + x.getDouble(i));
                    }
                },
                Map.of("acc", Comparators.allclose(0, 0), "scratch", new NotValidated("a copy of x, for the test")),
                Map.of(), Map.of("acc", InputFill.of(new Init.Uniform(10, 20))));
    }

    @Test
    void anInPlaceOutputStartsFromItsFillAndAScratchOutputIsSkipped(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        RunResult r = GoldenRunner.runJit(spec(), RunSpec.defaults(out).withOutputDir(dir, true).withBench(2,
                Progress.none()), Map.of());
        String log = buf.toString(StandardCharsets.UTF_8);
        assertThat(r.passed()).as(log).isTrue();
        assertThat(log).contains("'acc' PASS").contains("'scratch' SKIP shape=[64, 64] dtype=fp32 (not validated: "
                + "a copy of x, for the test)").contains("1 output(s), 1 not validated");
        // acc = fill + x, exactly: the fill is in [10, 20) and x in [-1, 1)
        Tensor acc = Npy.read(dir.resolve("outputs/acc.npy"));
        Tensor init = Npy.read(dir.resolve("inputs/acc.npy"));
        Tensor x = Npy.read(dir.resolve("inputs/x.npy"));
        for (long i = 0; i < acc.numel(); i++) {
            assertThat(init.getDouble(i)).isBetween(10.0, 20.0);
            assertThat(acc.getDouble(i)).isEqualTo((double) (float) (init.getDouble(i) + x.getDouble(i)));
        }
    }

    @Test
    void withoutTheFillTheSameProgramFails() {
        ProgramSpec s = spec();
        ProgramSpec zeroStart = new ProgramSpec(s.programName(), s.preset(), s.program(), s.inputs(),
                (in, out) -> {
                    out.get("acc").copyFrom(in.get("x"));
                }, s.comparators(), s.runtimeCfg(), Map.of("acc", InputFill.of(new Init.Uniform(10, 20))));
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(GoldenRunner.runJit(zeroStart, RunSpec.defaults(quiet), Map.of()).passed()).isFalse();
    }
}
