package dev.jpto.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.l3.ChipCall;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.models.dsv4.Dsv4HeapPlan;
import dev.jpto.models.dsv4.Dsv4Moe;
import dev.jpto.models.dsv4.Dsv4Preset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The layer and MTP L3 programs' task decomposition, without running them (the registry-wide tiny tests run
 * them): the host-level dependencies of the expert-parallel MoE, and the MoE's heap plan against its program.
 */
class Dsv4LayerStructureTest {

    @Test
    void layerCallsFollowTheOriginalsStagesPerRankWithEpDispatchAndCombine() {
        L3Program l3 = Dsv4Layer.program(Dsv4Preset.tiny());
        assertThat(l3.chips()).isEqualTo(2);
        assertThat(labels(l3)).containsExactly("prefill_attention_hca_r0", "prefill_attention_hca_r1",
                "moe_gate_r0", "moe_gate_r1", "moe_experts_r0", "moe_experts_r1", "moe_combine_r0", "moe_combine_r1");
        // the gate of rank r waits for rank r's attention only
        assertThat(preds(l3, "moe_gate_r1")).containsExactly("prefill_attention_hca_r1");
        // dispatch: every rank's experts read every rank's routes
        assertThat(preds(l3, "moe_experts_r0")).contains("moe_gate_r0", "moe_gate_r1");
        assertThat(preds(l3, "moe_experts_r1")).contains("moe_gate_r0", "moe_gate_r1");
        // combine: every rank reads every rank's expert lanes
        assertThat(preds(l3, "moe_combine_r0")).contains("moe_experts_r0", "moe_experts_r1");
        // round-robin placement keeps each rank on its own chip
        int[] chip = l3.placement(2);
        for (ChipCall c : l3.calls()) {
            assertThat(chip[c.index()]).as(c.label()).isEqualTo(c.label().endsWith("_r1") ? 1 : 0);
        }
    }

    @Test
    void mtpRunsProjectionAttentionMoeAndHeadPerRank() {
        L3Program l3 = Dsv4Mtp.program(Dsv4Preset.tiny());
        assertThat(labels(l3)).hasSize(12).startsWith("mtp_projection_r0", "mtp_projection_r1",
                "prefill_attention_swa_r0").endsWith("mtp_head_r0", "mtp_head_r1");
        assertThat(preds(l3, "prefill_attention_swa_r0")).containsExactly("mtp_projection_r0");
        assertThat(preds(l3, "mtp_head_r0")).containsExactly("moe_combine_r0");
        assertThat(l3.outputs().stream().map(h -> h.name()).toList()).contains("hidden_out", "pre_hc_hidden_out",
                "kv_cache", "projected");
    }

    @Test
    void oneChipMoeAllocatesExactlyItsHeapPlanInOrder() {
        Dsv4Preset tiny = Dsv4Preset.tiny();
        Program p = Dsv4MoeKernels.standalone(tiny);
        List<String> got = new ArrayList<>();
        collect(p.body(), got);
        List<String> want = new ArrayList<>();
        for (Dsv4HeapPlan.Alloc a : Dsv4MoeKernels.standalonePlan(tiny)) {
            want.add(a.name() + " " + a.dtype().text() + " " + Arrays.stream(a.shape()).reduce(1, Math::multiplyExact));
        }
        assertThat(got).containsExactlyElementsOf(want);
    }

    @Test
    void theScoreRoutingFixtureSpreadsTheChosenExpertsOverEveryRank() {
        Dsv4Moe pro = Dsv4Moe.of(Dsv4Preset.pro(), 2);
        assertThat(pro.nExperts()).isEqualTo(96);
        double[] bias = pro.gateBiasFixture();
        List<Integer> chosen = new ArrayList<>();
        for (int e = 0; e < bias.length; e++) {
            if (bias[e] > 0) {
                chosen.add(e);
            }
        }
        assertThat(chosen).containsExactly(0, 1, 2, 48, 49, 50);
    }

    private static void collect(List<Stmt> body, List<String> out) {
        for (Stmt s : body) {
            if (s instanceof Stmt.Alloc a) {
                out.add(a.tensor().name() + " " + a.tensor().dtype().text() + " "
                        + Arrays.stream(a.tensor().shape()).reduce(1, Math::multiplyExact));
            } else if (s instanceof Stmt.Scope sc) {
                collect(sc.body(), out);
            }
        }
    }

    private static List<String> labels(L3Program l3) {
        return l3.calls().stream().map(ChipCall::label).toList();
    }

    private static List<String> preds(L3Program l3, String label) {
        ChipCall c = l3.calls().stream().filter(x -> x.label().equals(label)).findFirst().orElseThrow();
        return l3.predecessors(c.index()).stream().map(i -> l3.calls().get(i).label()).toList();
    }
}
