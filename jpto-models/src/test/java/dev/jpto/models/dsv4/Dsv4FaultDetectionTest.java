package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 7's stronger validation: a broken attention (×1.01, sink dropped, inverse RoPE skipped) moves the
 * attention share of x_out by well over the noise of a faithful kernel, yet barely moves x_out itself, so only
 * the attention-share check catches every one of them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Dsv4FaultDetectionTest {
    private final Map<Dsv4Program, Dsv4GoldenResult> golden = new EnumMap<>(Dsv4Program.class);
    private final Map<Dsv4Program, Map<String, Tensor>> inputs = new EnumMap<>(Dsv4Program.class);
    private final Dsv4Preset preset = Dsv4Preset.tiny();
    private Arena arena;

    @BeforeAll
    void setUp() {
        arena = Arena.ofShared();
        for (Dsv4Program prog : Dsv4Program.values()) {
            Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(prog, preset), 31, arena);
            inputs.put(prog, in);
            golden.put(prog, Dsv4Golden.run(prog, preset, in, arena));
        }
    }

    @AfterAll
    void close() {
        arena.close();
    }

    private Tensor faultyXOut(Dsv4Program prog, Dsv4Faults faults) {
        return Dsv4Golden.run(prog, preset, inputs.get(prog), arena, faults).expected("x_out");
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void aFaithfulResultWithRoundingNoisePassesBothChecks(Dsv4Program prog) {
        Dsv4GoldenResult g = golden.get(prog);
        Tensor xOut = g.expected("x_out");
        // perturb every attention-share element by up to ±2 bf16 ulps, as an independent kernel might
        Tensor noisy = Tensor.allocate(arena, DType.FP32, xOut.shape());
        SplittableRandom rnd = new SplittableRandom(1);
        for (long i = 0; i < xOut.numel(); i++) {
            double share = g.attnShare().getDouble(i);
            noisy.setDouble(i, xOut.getDouble(i) + share * (rnd.nextDouble() - 0.5) * 4 * Math.pow(2, -8));
        }
        double[] thr = Dsv4Validation.xOutThresholds(prog, 0);
        assertThat(Dsv4Validation.ratioReldiff(noisy, xOut, thr[0], thr[1], thr[2], 128).pass()).isTrue();
        Dsv4Validation.ShareResult s = Dsv4Validation.attentionShare(noisy, g, 128);
        assertThat(s.pass()).as("%s relL2=%s gain=%s", prog, s.relL2(), s.gain()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void attentionScaledBy101IsInvisibleToTheOriginalComparatorButNotToTheShareGain(Dsv4Program prog) {
        Tensor bad = faultyXOut(prog, Dsv4Faults.scaled(1.01));
        Dsv4GoldenResult g = golden.get(prog);
        double[] thr = Dsv4Validation.xOutThresholds(prog, 0);
        assertThat(Dsv4Validation.ratioReldiff(bad, g.expected("x_out"), thr[0], thr[1], thr[2], 128).pass())
                .as("the original's x_out comparator is blind to a 1 % attention error").isTrue();
        Dsv4Validation.ShareResult s = Dsv4Validation.attentionShare(bad, g, 128);
        System.out.printf("%s x1.01: share relL2=%.4f gain=%.5f, x_out relL2=%.2e%n", prog, s.relL2(), s.gain(),
                relL2(bad, g.expected("x_out")));
        assertThat(s.gain()).isBetween(1.007, 1.013);
        assertThat(s.pass()).isFalse();
        assertThat(relL2(bad, g.expected("x_out"))).isLessThan(1e-3);
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void aDroppedSinkMovesTheShareByPercentsAndXOutBarely(Dsv4Program prog) {
        Tensor bad = faultyXOut(prog, Dsv4Faults.noSink());
        Dsv4GoldenResult g = golden.get(prog);
        Dsv4Validation.ShareResult s = Dsv4Validation.attentionShare(bad, g, 128);
        double xRel = relL2(bad, g.expected("x_out"));
        System.out.printf("%s no sink: share relL2=%.4f gain=%.4f, x_out relL2=%.2e%n", prog, s.relL2(), s.gain(),
                xRel);
        assertThat(s.relL2()).isGreaterThan(0.05);
        assertThat(s.pass()).isFalse();
        assertThat(xRel).isLessThan(0.01);
        double[] thr = Dsv4Validation.xOutThresholds(prog, 0);
        Dsv4Validation.RatioResult original = Dsv4Validation.ratioReldiff(bad, g.expected("x_out"), thr[0], thr[1],
                thr[2], 128);
        System.out.printf("  original x_out comparator: %s (%d bad of %d allowed)%n",
                original.pass() ? "passes" : "fails", original.bad(), original.allowed());
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void aSkippedInverseRopeMovesTheShareByPercentsAndXOutBarely(Dsv4Program prog) {
        Tensor bad = faultyXOut(prog, Dsv4Faults.noInverseRope());
        Dsv4GoldenResult g = golden.get(prog);
        Dsv4Validation.ShareResult s = Dsv4Validation.attentionShare(bad, g, 128);
        double xRel = relL2(bad, g.expected("x_out"));
        System.out.printf("%s no inverse rope: share relL2=%.4f gain=%.4f, x_out relL2=%.2e%n", prog, s.relL2(),
                s.gain(), xRel);
        assertThat(s.relL2()).isGreaterThan(0.05);
        assertThat(s.pass()).isFalse();
        assertThat(xRel).isLessThan(0.01);
        double[] thr = Dsv4Validation.xOutThresholds(prog, 0);
        Dsv4Validation.RatioResult original = Dsv4Validation.ratioReldiff(bad, g.expected("x_out"), thr[0], thr[1],
                thr[2], 128);
        System.out.printf("  original x_out comparator: %s (%d bad of %d allowed)%n",
                original.pass() ? "passes" : "fails", original.bad(), original.allowed());
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void withTheOriginalsZeroSinksADroppedSinkIsMuchHarderToSee(Dsv4Program prog) {
        Dsv4Preset zero = preset.withSinks(Init.zeros());
        Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(prog, zero), 31, arena);
        Dsv4GoldenResult g = Dsv4Golden.run(prog, zero, in, arena);
        Tensor bad = Dsv4Golden.run(prog, zero, in, arena, Dsv4Faults.noSink()).expected("x_out");
        Dsv4Validation.ShareResult zeroSinks = Dsv4Validation.attentionShare(bad, g, 128);
        Dsv4Validation.ShareResult demoLike = Dsv4Validation.attentionShare(faultyXOut(prog, Dsv4Faults.noSink()),
                golden.get(prog), 128);
        double[] thr = Dsv4Validation.xOutThresholds(prog, 0);
        boolean original = Dsv4Validation.ratioReldiff(bad, g.expected("x_out"), thr[0], thr[1], thr[2], 128).pass();
        System.out.printf("%s no sink with zero sinks: share relL2=%.4f (non-zero sinks: %.4f); original x_out "
                + "comparator %s%n", prog, zeroSinks.relL2(), demoLike.relL2(), original ? "passes" : "fails");
        assertThat(zeroSinks.relL2()).isLessThan(demoLike.relL2() / 2);
    }

    static double relL2(Tensor a, Tensor e) {
        double num = 0;
        double den = 0;
        for (long i = 0; i < e.numel(); i++) {
            double d = a.getDouble(i) - e.getDouble(i);
            num += d * d;
            den += e.getDouble(i) * e.getDouble(i);
        }
        return Math.sqrt(num / den);
    }
}
