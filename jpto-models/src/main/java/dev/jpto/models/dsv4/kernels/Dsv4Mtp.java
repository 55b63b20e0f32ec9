package dev.jpto.models.dsv4.kernels;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.HostView;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.models.dsv4.Dsv4Moe;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import dev.jpto.models.dsv4.MoeSignature;
import dev.jpto.models.dsv4.MtpGolden;
import dev.jpto.models.dsv4.MtpSignature;
import dev.jpto.models.dsv4.TensorSpec;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.NotValidated;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dsv4.prefill_mtp}: the MTP block as an L3 program over {@value Dsv4Layer#RANKS} ranks, following the
 * original's {@code l3_mtp_prefill_fwd}: per rank {@code mtp_projection} (e_proj(enorm(hidden)) + h_proj(hnorm(
 * prev hidden)) per stream) → SWA attention → the MoE FFN (score-routed, MTP layer id 61) → {@code mtp_head}
 * (hc_head and the MTP RMSNorm). Outputs hidden_out, pre_hc_hidden_out and kv_cache as the original, plus the
 * projection as {@code projected} (validated with the original's mtp_projection gate).
 */
public final class Dsv4Mtp {
    static final Dsv4Program ATTENTION = Dsv4Program.SWA;
    /** The original's gates on hidden_out and pre_hc_hidden_out: ratio_reldiff(0.02, 0.05). */
    static final double DIFF_THD = 0.02;
    static final double PCT_THD = 0.05;

    private Dsv4Mtp() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>("dsv4.prefill_mtp", "DeepSeek-V4 prefill MTP block as an L3 program over "
                + Dsv4Layer.RANKS + " chips: projection, SWA attention, expert-parallel MoE FFN, hc_head + RMSNorm",
                Dsv4Preset.all(), Dsv4Preset::name, "tiny", Dsv4Mtp::spec);
    }

    public static L3Program program(Dsv4Preset p) {
        int ranks = Dsv4Layer.RANKS;
        Dsv4Moe moe = Dsv4Moe.of(p, ranks);
        L3Program.Builder l3 = L3Program.builder("prefill_mtp").chips(ranks);
        Map<String, HostTensor> tokens = new LinkedHashMap<>();
        for (TensorSpec s : MtpSignature.tokens(p)) {
            tokens.put(s.name(), l3.input(s.name(), s.dtype(), Dsv4Layer.stacked(s.shape())));
        }
        Map<String, HostTensor> proj = declare(l3, MtpSignature.projection(p));
        Map<String, HostTensor> attnShared = declare(l3, Dsv4Layer.attentionShared(p, ATTENTION));
        Map<String, HostTensor> ffnShared = declare(l3, MoeSignature.gateParams(p, moe));
        ffnShared.putAll(declare(l3, MoeSignature.sharedParams(p, moe)));
        Map<String, HostTensor> routed = new LinkedHashMap<>();
        for (TensorSpec s : MoeSignature.routedParams(p, moe, 0)) {
            routed.put(s.name(), l3.input(s.name(), s.dtype(), Dsv4Layer.stacked(s.shape())));
        }
        Map<String, HostTensor> head = declare(l3, MtpSignature.head(p));
        HostTensor projected = l3.output("projected", DType.FP32, ranks, p.t(), p.dims().hcMult(), p.dims().d());
        Program projection = MtpKernels.projection(p);
        List<HostView> xIn = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            Map<String, HostView> b = new LinkedHashMap<>(proj);
            for (Map.Entry<String, HostTensor> e : tokens.entrySet()) {
                b.put(e.getKey(), e.getValue().at(r));
            }
            b.put("projected", projected.at(r));
            l3.call("mtp_projection_r" + r, projection, b);
            xIn.add(projected.at(r));
        }
        Dsv4Layer.Stage attn = Dsv4Layer.attentionStage(l3, p, ATTENTION, "x_hc", "x_attn", attnShared, xIn,
                false);
        HostTensor preHc = l3.output("pre_hc_hidden_out", DType.FP32, attn.xOut().shape());
        Dsv4Layer.moeStage(l3, p, moe, attn, ffnShared, routed, preHc);
        HostTensor hiddenOut = l3.output("hidden_out", DType.BF16, ranks, p.t(), p.dims().d());
        Program headProgram = MtpKernels.head(p);
        for (int r = 0; r < ranks; r++) {
            Map<String, HostView> b = new LinkedHashMap<>(head);
            b.put("pre_hc_hidden_out", preHc.at(r));
            b.put("hidden_out", hiddenOut.at(r));
            l3.call("mtp_head_r" + r, headProgram, b);
        }
        return l3.build();
    }

    static ProgramSpec spec(Dsv4Preset p) {
        Dsv4Moe moe = Dsv4Moe.of(p, Dsv4Layer.RANKS);
        L3Program program = program(p);
        Map<String, TensorSpec> shared = new HashMap<>();
        List<TensorSpec> all = new ArrayList<>(MtpSignature.projection(p));
        all.addAll(Dsv4Layer.attentionShared(p, ATTENTION));
        all.addAll(MoeSignature.gateParams(p, moe));
        all.addAll(MoeSignature.sharedParams(p, moe));
        all.addAll(MtpSignature.head(p));
        for (TensorSpec s : all) {
            shared.put(s.name(), s);
        }
        Map<String, TensorSpec> tokenSpecs = new HashMap<>();
        for (TensorSpec s : MtpSignature.tokens(p)) {
            tokenSpecs.put(s.name(), s);
        }
        List<InputSpec> inputs = new ArrayList<>();
        for (HostTensor h : program.inputs()) {
            if (shared.containsKey(h.name())) {
                inputs.add(new InputSpec(h.name(), h.dtype(), h.shape(),
                        new Dsv4Programs.SpecFill(shared.get(h.name()))));
            } else if (tokenSpecs.containsKey(h.name())) {
                TensorSpec s = tokenSpecs.get(h.name());
                inputs.add(new InputSpec(h.name(), h.dtype(), h.shape(), new Dsv4Layer.StackedFill(List.of(s, s),
                        true)));
            } else {
                List<TensorSpec> per = new ArrayList<>();
                for (int r = 0; r < Dsv4Layer.RANKS; r++) {
                    per.add(MoeSignature.routedParams(p, moe, r).stream().filter(s -> s.name().equals(h.name()))
                            .findFirst().orElseThrow());
                }
                inputs.add(new InputSpec(h.name(), h.dtype(), h.shape(), new Dsv4Layer.StackedFill(per, false)));
            }
        }
        // The original's gates. Its prefill_mtp compares neither kv_cache nor the attention output; the stricter
        // per-stage checks of dsv4.prefill_layer do not apply here, because the attention's input (projected)
        // already differs from the golden's by int8 re-quantisation noise within the projection's 5% budget.
        Map<String, GoldenComparator> cmp = new LinkedHashMap<>();
        for (TensorSpec s : Dsv4Layer.attentionStacked(p, ATTENTION)) {
            if (s.direction() == TensorSpec.Direction.INOUT) {
                cmp.put(s.name(), new NotValidated("the original's prefill_mtp does not compare it; its input"
                        + " (projected) carries the projection's int8 noise"));
            }
        }
        cmp.put("projected", Comparators.ratioAllclose(1e-3, 1e-3, 0.05));
        cmp.put("pre_hc_hidden_out", Comparators.ratioReldiff(DIFF_THD, PCT_THD));
        cmp.put("hidden_out", Comparators.ratioReldiff(DIFF_THD, PCT_THD));
        return new ProgramSpec("dsv4.prefill_mtp", p.name(), program, inputs, (in, out) -> golden(p, moe, in, out),
                cmp, Dsv4Kernels.defaultRuntimeCfg());
    }

    static void golden(Dsv4Preset p, Dsv4Moe moe, Map<String, Tensor> in, Map<String, Tensor> out) {
        try (Arena arena = Arena.ofConfined()) {
            Tensor projected = out.get("projected");
            for (int r = 0; r < Dsv4Layer.RANKS; r++) {
                MtpGolden.projection(p, in, PerRank.rank(in.get("hidden_states"), r),
                        PerRank.rank(in.get("prev_hidden_states"), r), PerRank.rank(projected, r));
            }
            List<Tensor> xAttn = Dsv4Layer.attentionGolden(p, ATTENTION, in, projected, out, "x_attn", arena);
            Tensor preHc = out.get("pre_hc_hidden_out");
            Dsv4Layer.moeGolden(p, moe, in, xAttn, preHc);
            for (int r = 0; r < Dsv4Layer.RANKS; r++) {
                MtpGolden.head(p, in, PerRank.rank(preHc, r), PerRank.rank(out.get("hidden_out"), r));
            }
        }
    }

    private static Map<String, HostTensor> declare(L3Program.Builder l3, List<TensorSpec> specs) {
        Map<String, HostTensor> m = new LinkedHashMap<>();
        for (TensorSpec s : specs) {
            m.put(s.name(), l3.input(s.name(), s.dtype(), s.shape()));
        }
        return m;
    }
}
