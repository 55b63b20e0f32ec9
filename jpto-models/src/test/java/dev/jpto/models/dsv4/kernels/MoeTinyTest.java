package dev.jpto.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.launch.DryRun;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.models.dsv4.Dsv4HeapPlan;
import dev.jpto.models.dsv4.Dsv4Inputs;
import dev.jpto.models.dsv4.Dsv4Moe;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.MoeGolden;
import dev.jpto.models.dsv4.MoeSignature;
import dev.jpto.models.dsv4.TensorSpec;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** dsv4.moe at tiny: compile → run on the chip → the original's x_next gate against the plain-Java golden. */
class MoeTinyTest {

    @Test
    void oneChipMoeMatchesTheGoldenAndAWrongRouteScaleDoesNot() {
        Dsv4Preset tiny = Dsv4Preset.tiny();
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> args = new LinkedHashMap<>();
            for (TensorSpec s : MoeSignature.standalone(tiny)) {
                Tensor t = Tensor.allocate(arena, s.dtype(), s.shape());
                if (s.direction() == TensorSpec.Direction.IN) {
                    Dsv4Inputs.fillOne(t, s, 3);
                }
                args.put(s.name(), t);
            }
            Tensor expected = Tensor.allocate(arena, args.get("x_next").dtype(), args.get("x_next").shape());
            MoeGolden.standalone(tiny, args, expected);

            CompiledProgram compiled = Compiler.compileInMemory(Dsv4MoeKernels.standalone(tiny));
            RunReport report = Runner.run(compiled, args, RunConfig.defaults());
            CompareContext ctx = new CompareContext(Map.of(), Map.of(), args);
            CompareResult r = MoePrograms.xNextComparator(tiny).compare(args.get("x_next"), expected, ctx);
            System.out.println("dsv4.moe tiny: " + r.description() + "; rings " + report.rings());
            assertThat(r.passed()).as(r.description()).isTrue();

            // every intermediate of the body scope lives to the end: ring 1 holds the plan's depth-1 sum, ring 2
            // the routed part of the inner scope
            List<Dsv4HeapPlan.Alloc> plan = Dsv4MoeKernels.standalonePlan(tiny);
            assertThat(report.ring(1).heapMax()).isEqualTo(Dsv4HeapPlan.peakBytes(plan, 1));
            assertThat(report.ring(2).heapMax()).isEqualTo(Dsv4HeapPlan.peakBytes(plan, 2));

            Dsv4Moe m = Dsv4Moe.of(tiny, 1);
            float[] x = new float[(int) args.get("x_hc").numel()];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) args.get("x_hc").getDouble(i);
            }

            // only 16-token tiles with a routed token run the expert: a dry run takes every tile as routed, so it
            // runs one task more per unrouted (expert, tile) than the real run (W1/W3 + W2 chunks instead of the
            // zero chunks), counted here from the golden router's top-k
            int[] indices = MoeGolden.gate(tiny, m, x, args).indices();
            boolean[][] routed = new boolean[m.nLocal()][tiny.t() / 16];
            for (int i = 0; i < indices.length; i++) {
                routed[indices[i]][i / m.topk() / 16] = true;
            }
            long unrouted = 0;
            for (boolean[] tiles : routed) {
                for (boolean hit : tiles) {
                    unrouted += hit ? 0 : 1;
                }
            }
            assertThat(unrouted).as("the fixture routes every token to 6 of the 8 experts").isEqualTo(
                    2L * tiny.t() / 16);
            RunReport dry = DryRun.run(compiled, RunConfig.defaults());
            assertThat(dry.tasksExecuted() - report.tasksExecuted()).isEqualTo(unrouted);

            // the routed experts are visible to the gate: a 5% larger routed scale fails it
            Dsv4Moe wrong = new Dsv4Moe(m.nLocal(), 1, m.topk(), m.inter(), m.routeScale() * 1.05, m.swigluLimit());
            Tensor off = Tensor.allocate(arena, expected.dtype(), expected.shape());
            float[] y = MoeGolden.run(tiny, wrong, List.of(x), List.of(args)).getFirst();
            for (int i = 0; i < y.length; i++) {
                off.setDouble(i, y[i]);
            }
            CompareResult bad = MoePrograms.xNextComparator(tiny).compare(args.get("x_next"), off, ctx);
            System.out.println("dsv4.moe tiny vs route_scale x1.05: " + bad.description());
            assertThat(bad.passed()).isFalse();
        }
    }
}
