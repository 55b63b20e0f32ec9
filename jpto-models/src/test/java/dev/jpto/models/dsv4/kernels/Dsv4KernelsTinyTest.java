package dev.jpto.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4HeapPlan;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The tiny presets through compile → run on the simulated chip, validated against the plain-Java golden. */
class Dsv4KernelsTinyTest {

    @Test
    void swaTinyMatchesTheGoldenAndFillsRingOneWithThePlannedHeap() {
        try (Arena arena = Arena.ofShared()) {
            Dsv4Preset tiny = Dsv4Preset.tiny();
            Dsv4KernelRun r = Dsv4KernelRun.run(Dsv4Program.SWA, tiny, Dsv4Faults.NONE, RunConfig.defaults(), arena);
            System.out.printf("SWA tiny: share relL2=%.5f gain=%.5f, x_out bad=%d, rings %s%n", r.share().relL2(),
                    r.share().gain(), r.xOut().bad(), r.report().rings());
            assertThat(r.failures()).isEmpty();
            assertThat(r.share().relL2()).isLessThan(0.01);
            // every intermediate lives in the body scope until the end: ring 1's high-water is the plan's sum
            long planned = Dsv4HeapPlan.peakBytes(Dsv4HeapPlan.of(Dsv4Program.SWA, tiny), 1);
            assertThat(r.report().ring(1).heapMax()).isEqualTo(planned);
            assertThat(r.report().ring(0).heapMax()).isZero();
            assertThat(r.report().ring(2).heapMax()).isZero();
        }
    }

    @Test
    void hcaTinyMatchesTheGolden() {
        try (Arena arena = Arena.ofShared()) {
            Dsv4Preset tiny = Dsv4Preset.tiny();
            Dsv4KernelRun r = Dsv4KernelRun.run(Dsv4Program.HCA, tiny, Dsv4Faults.NONE, RunConfig.defaults(), arena);
            System.out.printf("HCA tiny: share relL2=%.5f gain=%.5f, x_out bad=%d%n", r.share().relL2(),
                    r.share().gain(), r.xOut().bad());
            assertThat(r.failures()).isEmpty();
            long planned = Dsv4HeapPlan.peakBytes(Dsv4HeapPlan.of(Dsv4Program.HCA, tiny), 1);
            assertThat(r.report().ring(1).heapMax()).isEqualTo(planned);
        }
    }

    @Test
    void csaTinyMatchesTheGoldenAndFillsRingOneWithThePlannedHeap() {
        try (Arena arena = Arena.ofShared()) {
            Dsv4Preset tiny = Dsv4Preset.tiny();
            Dsv4KernelRun r = Dsv4KernelRun.run(Dsv4Program.CSA, tiny, Dsv4Faults.NONE, RunConfig.defaults(), arena);
            System.out.printf("CSA tiny: share relL2=%.5f gain=%.5f, x_out bad=%d, rings %s%n", r.share().relL2(),
                    r.share().gain(), r.xOut().bad(), r.report().rings());
            assertThat(r.failures()).isEmpty();
            assertThat(r.share().relL2()).isLessThan(0.01);
            long planned = Dsv4HeapPlan.peakBytes(Dsv4HeapPlan.of(Dsv4Program.CSA, tiny), 1);
            assertThat(r.report().ring(1).heapMax()).isEqualTo(planned);
            // the score-init scopes (depth 2) allocate nothing
            assertThat(r.report().ring(2).heapMax()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void allocatesExactlyTheHeapPlanInOrderInTheBodyScope(Dsv4Program prog) {
        for (Dsv4Preset preset : Dsv4Preset.all()) {
            assertAllocatesThePlan(prog, preset);
        }
    }

    @Test
    void csaProPlanIsTheDecompositionsRingOnePeak() {
        // docs/dsv4-decomposition.md §4: 297.81 MiB in 64 allocations, and 256 MiB blocks on `partials`
        List<Dsv4HeapPlan.Alloc> plan = Dsv4HeapPlan.of(Dsv4Program.CSA, Dsv4Preset.pro());
        assertThat(plan).hasSize(64);
        assertThat(Dsv4HeapPlan.peakBytes(plan, 1)).isEqualTo(312_274_944L);
        assertThat(Dsv4HeapPlan.firstBlocked(plan, 1, 256L << 20)).get().extracting(Dsv4HeapPlan.Alloc::name)
                .isEqualTo("partials");
        assertAllocatesThePlan(Dsv4Program.CSA, Dsv4Preset.pro());
    }

    private static void assertAllocatesThePlan(Dsv4Program prog, Dsv4Preset tiny) {
        Program p = Dsv4Kernels.build(prog, tiny);
        assertThat(p.body()).hasSize(1).first().isInstanceOf(Stmt.Scope.class);
        List<String> got = new ArrayList<>();
        for (Stmt s : ((Stmt.Scope) p.body().getFirst()).body()) {
            if (s instanceof Stmt.Alloc a) {
                got.add(a.tensor().name() + " " + a.tensor().dtype().text() + " " + bytes(a.tensor().shape()));
            }
        }
        List<String> want = new ArrayList<>();
        List<Dsv4HeapPlan.Alloc> plan = Dsv4HeapPlan.of(prog, tiny);
        for (Dsv4HeapPlan.Alloc a : plan) {
            want.add(Dsv4Build.tensorName(plan, a) + " " + a.dtype().text() + " " + bytes(a.shape()));
        }
        assertThat(got).containsExactlyElementsOf(want);
    }

    private static long bytes(long[] shape) {
        return Arrays.stream(shape).reduce(1, Math::multiplyExact);
    }

    @ParameterizedTest
    @EnumSource(value = Dsv4Program.class, names = {"SWA", "CSA"})
    void aKernelScalingAttentionBy101FailsValidation(Dsv4Program prog) {
        assertBrokenKernelFails(prog, Dsv4Faults.scaled(1.01));
    }

    @ParameterizedTest
    @EnumSource(value = Dsv4Program.class, names = {"SWA", "CSA"})
    void aKernelDroppingTheSinkFailsValidation(Dsv4Program prog) {
        assertBrokenKernelFails(prog, Dsv4Faults.noSink());
    }

    @ParameterizedTest
    @EnumSource(value = Dsv4Program.class, names = {"SWA", "CSA"})
    void aKernelSkippingTheInverseRopeFailsValidation(Dsv4Program prog) {
        assertBrokenKernelFails(prog, Dsv4Faults.noInverseRope());
    }

    private static void assertBrokenKernelFails(Dsv4Program prog, Dsv4Faults faults) {
        try (Arena arena = Arena.ofShared()) {
            Dsv4KernelRun r = Dsv4KernelRun.run(prog, Dsv4Preset.tiny(), faults, RunConfig.defaults(), arena);
            System.out.printf("%s tiny %s: share relL2=%.5f gain=%.5f, x_out pass=%s%n", prog, faults,
                    r.share().relL2(), r.share().gain(), r.xOut().pass());
            assertThat(r.share().pass()).as("attention-share check catches %s", faults).isFalse();
            assertThat(r.failures()).anyMatch(f -> f.startsWith("attention share"));
        }
    }
}
