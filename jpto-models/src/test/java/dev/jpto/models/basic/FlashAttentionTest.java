package dev.jpto.models.basic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.Golden;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The kernel computes causal attention and nothing close to it: against a golden without the mask, or without
 * the 1/√d scale, the same run fails.
 */
class FlashAttentionTest {
    private static final ProgramSpec TINY = Programs.registry().get(FlashAttention.NAME).spec("tiny");

    private static RunResult runAgainst(Golden golden) {
        ProgramSpec s = new ProgramSpec(TINY.programName(), TINY.preset(), TINY.program(), TINY.inputs(), golden,
                TINY.comparators(), TINY.runtimeCfg());
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return GoldenRunner.runJit(s, RunSpec.defaults(quiet).withSeed(1), Map.of());
    }

    /** Full (non-causal) attention, straight from the definition. */
    private static void fullAttention(Map<String, Tensor> in, Map<String, Tensor> out) {
        Tensor tq = in.get("q");
        int heads = Dense.dim(tq, 0);
        int seq = Dense.dim(tq, 1);
        int d = Dense.dim(tq, 2);
        double[] q = Dense.read(tq);
        double[] k = Dense.read(in.get("k"));
        double[] v = Dense.read(in.get("v"));
        double[] o = new double[q.length];
        double scale = 1 / Math.sqrt(d);
        for (int h = 0; h < heads; h++) {
            int base = h * seq * d;
            for (int i = 0; i < seq; i++) {
                double[] w = new double[seq];
                double sum = 0;
                for (int j = 0; j < seq; j++) {
                    double dot = 0;
                    for (int c = 0; c < d; c++) {
                        dot += q[base + i * d + c] * k[base + j * d + c];
                    }
                    w[j] = Math.exp(dot * scale);
                    sum += w[j];
                }
                for (int j = 0; j < seq; j++) {
                    for (int c = 0; c < d; c++) {
                        o[base + i * d + c] += w[j] / sum * v[base + j * d + c];
                    }
                }
            }
        }
        Dense.write(out.get("o"), o);
    }

    @Test
    void passesAgainstTheCausalGolden() {
        assertThat(runAgainst(TINY.golden()).passed()).isTrue();
    }

    @Test
    void failsAgainstFullAttentionFromTheFirstRow() {
        RunResult r = runAgainst(FlashAttentionTest::fullAttention);
        assertThat(r.passed()).isFalse();
        var result = r.outputs().getFirst().result();
        // every query row but the last of each head sees fewer keys under the mask: nearly all elements differ
        assertThat(result.mismatchCount()).isGreaterThan(result.numel() / 2);
        // the first mismatch is row 0 of head 0, which sees only key 0 causally
        assertThat(result.firstMismatches().getFirst()).containsExactly(0, 0, 0);
    }

    @Test
    void failsAgainstAGoldenWithoutTheScale() {
        RunResult r = runAgainst((in, out) -> FlashAttention.golden(in, out, 1.0));
        assertThat(r.passed()).isFalse();
    }
}
