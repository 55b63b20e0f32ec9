package dev.jpto.models.dsv4.kernels;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.HostView;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.models.dsv4.Dsv4Golden;
import dev.jpto.models.dsv4.Dsv4GoldenResult;
import dev.jpto.models.dsv4.Dsv4Inputs;
import dev.jpto.models.dsv4.Dsv4Moe;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import dev.jpto.models.dsv4.Dsv4Signature;
import dev.jpto.models.dsv4.MoeGolden;
import dev.jpto.models.dsv4.MoeSignature;
import dev.jpto.models.dsv4.TensorSpec;
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code dsv4.prefill_layer}: one DeepSeek-V4 layer over an expert-parallel world of {@value #RANKS} ranks as an L3
 * program, following the original's {@code l3_prefill_layer}: per rank, the layer's attention (HCA: Pro's layer 3,
 * ratio 128, score-routed) then the MoE FFN, whose dispatch and combine move rows between ranks. The host is the
 * interconnect: each rank's chip calls are {@code prefill_attention_hca} → {@code moe_gate} → {@code moe_experts_r}
 * (reads every rank's routes) → {@code moe_combine_r} (reads every rank's expert lanes), and the host-level
 * dependencies come from those reads and writes. Every per-rank tensor is stacked [N_RANKS, …] as in the
 * original; weights every rank shares are one host tensor. The attention's x_out is exposed as {@code x_attn}
 * so that it is validated on its own (the attention programs' comparators).
 */
public final class Dsv4Layer {
    /** N_RANKS: the original's EP2 CI world. */
    public static final int RANKS = 2;
    /** The attention program of Pro's layer 3 (ratio 128 after the 3 hash-routed layers). */
    static final Dsv4Program ATTENTION = Dsv4Program.HCA;
    /** The layer's x_next gate: the original's valid_ratio_reldiff(diff_thd=0.01, pct_thd=0.06, max 0.25). */
    static final double DIFF_THD = 0.01;
    static final double PCT_THD = 0.06;

    private Dsv4Layer() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>("dsv4.prefill_layer", "DeepSeek-V4 prefill layer as an L3 program over "
                + RANKS + " chips: HCA attention, then the MoE FFN with expert-parallel dispatch/combine through "
                + "the host", Dsv4Preset.all(), Dsv4Preset::name, "tiny", Dsv4Layer::spec);
    }

    /** Attention inputs every rank shares (all but x_hc). */
    static List<TensorSpec> attentionShared(Dsv4Preset p, Dsv4Program prog) {
        return Dsv4Signature.of(prog, p).tensors().stream()
                .filter(s -> s.direction() == TensorSpec.Direction.IN && !s.name().equals("x_hc")).toList();
    }

    /** Attention tensors stacked per rank: x_hc (input), the InOut pools and x_out (outputs). */
    static List<TensorSpec> attentionStacked(Dsv4Preset p, Dsv4Program prog) {
        return Dsv4Signature.of(prog, p).tensors().stream()
                .filter(s -> s.direction() != TensorSpec.Direction.IN || s.name().equals("x_hc")).toList();
    }

    /** The L3 program at {@code p}. */
    public static L3Program program(Dsv4Preset p) {
        Dsv4Moe moe = Dsv4Moe.of(p, RANKS);
        L3Program.Builder l3 = L3Program.builder("prefill_layer").chips(RANKS);
        Map<String, HostTensor> shared = new LinkedHashMap<>();
        for (TensorSpec s : attentionShared(p, ATTENTION)) {
            shared.put(s.name(), l3.input(s.name(), s.dtype(), s.shape()));
        }
        Stage attn = attentionStage(l3, p, ATTENTION, "x_hc", "x_attn", shared);
        Map<String, HostTensor> ffnShared = new LinkedHashMap<>();
        for (TensorSpec s : MoeSignature.gateParams(p, moe)) {
            ffnShared.put(s.name(), l3.input(s.name(), s.dtype(), s.shape()));
        }
        for (TensorSpec s : MoeSignature.sharedParams(p, moe)) {
            ffnShared.put(s.name(), l3.input(s.name(), s.dtype(), s.shape()));
        }
        Map<String, HostTensor> routed = new LinkedHashMap<>();
        for (TensorSpec s : MoeSignature.routedParams(p, moe, 0)) {
            routed.put(s.name(), l3.input(s.name(), s.dtype(), stacked(s.shape())));
        }
        HostTensor xNext = l3.output("x_next", DType.FP32, attn.xOut().shape());
        moeStage(l3, p, moe, attn, ffnShared, routed, xNext);
        return l3.build();
    }

    /** The per-rank attention calls' host tensors. */
    record Stage(List<HostView> xIn, HostTensor xOut, Map<String, HostTensor> pools) {
    }

    /**
     * Declares the stacked attention tensors ({@code xHcName} in, pools out, x_out as {@code xOutName}) and adds
     * one attention call per rank. {@code xIn} per rank overrides the x_hc input (null: the stacked input).
     */
    static Stage attentionStage(L3Program.Builder l3, Dsv4Preset p, Dsv4Program prog, String xHcName,
                                String xOutName, Map<String, HostTensor> shared) {
        return attentionStage(l3, p, prog, xHcName, xOutName, shared, null);
    }

    static Stage attentionStage(L3Program.Builder l3, Dsv4Preset p, Dsv4Program prog, String xHcName,
                                String xOutName, Map<String, HostTensor> shared, List<HostView> xIn) {
        return attentionStage(l3, p, prog, xHcName, xOutName, shared, xIn, true);
    }

    /** As above; {@code xOutIsOutput} false keeps x_out a host intermediate (scratch). */
    static Stage attentionStage(L3Program.Builder l3, Dsv4Preset p, Dsv4Program prog, String xHcName,
                                String xOutName, Map<String, HostTensor> shared, List<HostView> xIn,
                                boolean xOutIsOutput) {
        Program chip = Dsv4Kernels.build(prog, p);
        Map<String, HostTensor> pools = new LinkedHashMap<>();
        HostTensor xOut = null;
        List<HostView> in = xIn;
        for (TensorSpec s : attentionStacked(p, prog)) {
            if (s.name().equals("x_hc")) {
                if (in == null) {
                    HostTensor x = l3.input(xHcName, s.dtype(), stacked(s.shape()));
                    in = new ArrayList<>();
                    for (int r = 0; r < RANKS; r++) {
                        in.add(x.at(r));
                    }
                }
            } else if (s.name().equals("x_out")) {
                xOut = xOutIsOutput ? l3.output(xOutName, s.dtype(), stacked(s.shape()))
                        : l3.scratch(xOutName, s.dtype(), stacked(s.shape()));
            } else {
                pools.put(s.name(), l3.output(s.name(), s.dtype(), stacked(s.shape())));
            }
        }
        for (int r = 0; r < RANKS; r++) {
            Map<String, HostView> b = new LinkedHashMap<>(shared);
            b.put("x_hc", in.get(r));
            b.put("x_out", xOut.at(r));
            for (Map.Entry<String, HostTensor> e : pools.entrySet()) {
                b.put(e.getKey(), e.getValue().at(r));
            }
            l3.call(prog.programName().replace("dsv4.", "") + "_r" + r, chip, b);
        }
        return new Stage(in, xOut, pools);
    }

    /**
     * The MoE FFN of every rank: gate, experts (dispatch from every rank), combine (from every rank) and hc_post,
     * reading {@code attn.xOut} and writing {@code xNext}.
     */
    static void moeStage(L3Program.Builder l3, Dsv4Preset p, Dsv4Moe moe, Stage attn, Map<String, HostTensor> shared,
                         Map<String, HostTensor> routed, HostTensor xNext) {
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        int k = moe.topk();
        HostTensor xI8 = l3.scratch("x_norm_i8", DType.INT8, RANKS, t, d);
        HostTensor xSc = l3.scratch("x_norm_scale", DType.FP32, RANKS, t, 1);
        HostTensor idx = l3.scratch("indices", DType.INT32, RANKS, t, k);
        HostTensor wts = l3.scratch("weights", DType.FP32, RANKS, t, k);
        HostTensor post = l3.scratch("post_ffn", DType.FP32, RANKS, t, hc);
        HostTensor comb = l3.scratch("comb_ffn", DType.FP32, RANKS, t, (long) hc * hc);
        HostTensor recvY = l3.scratch("recv_y", DType.BF16, RANKS, (long) moe.nLocal() * moe.recvMax(t), d);
        HostTensor sh = l3.scratch("sh", DType.BF16, RANKS, t, d);
        Program gate = Dsv4MoeKernels.gateProgram(p, moe);
        for (int r = 0; r < RANKS; r++) {
            Map<String, HostView> b = new LinkedHashMap<>();
            b.put("x_hc", attn.xOut().at(r));
            for (TensorSpec s : MoeSignature.gateParams(p, moe)) {
                b.put(s.name(), shared.get(s.name()));
            }
            b.put("x_norm_i8", xI8.at(r));
            b.put("x_norm_scale", xSc.at(r));
            b.put("indices", idx.at(r));
            b.put("weights", wts.at(r));
            b.put("post", post.at(r));
            b.put("comb", comb.at(r));
            l3.call("moe_gate_r" + r, gate, b);
        }
        for (int r = 0; r < RANKS; r++) {
            Map<String, HostView> b = new LinkedHashMap<>();
            for (int s = 0; s < RANKS; s++) {
                List<String> n = Dsv4MoeKernels.sourceNames(s);
                b.put(n.get(0), xI8.at(s));
                b.put(n.get(1), xSc.at(s));
                b.put(n.get(2), idx.at(s));
                b.put(n.get(3), wts.at(s));
            }
            for (Map.Entry<String, HostTensor> e : routed.entrySet()) {
                b.put(e.getKey(), e.getValue().at(r));
            }
            for (TensorSpec s : MoeSignature.sharedParams(p, moe)) {
                b.put(s.name(), shared.get(s.name()));
            }
            b.put("recv_y", recvY.at(r));
            b.put("sh", sh.at(r));
            l3.call("moe_experts_r" + r, Dsv4MoeKernels.expertsProgram(p, moe, r), b);
        }
        for (int r = 0; r < RANKS; r++) {
            Map<String, HostView> b = new LinkedHashMap<>();
            b.put("x_hc", attn.xOut().at(r));
            b.put("post", post.at(r));
            b.put("comb", comb.at(r));
            b.put("sh", sh.at(r));
            for (int dst = 0; dst < RANKS; dst++) {
                b.put("recv_y_d" + dst, recvY.at(dst));
            }
            b.put("x_next", xNext.at(r));
            l3.call("moe_combine_r" + r, Dsv4MoeKernels.combineProgram(p, moe, r), b);
        }
    }

    static ProgramSpec spec(Dsv4Preset p) {
        Dsv4Moe moe = Dsv4Moe.of(p, RANKS);
        L3Program program = program(p);
        List<InputSpec> inputs = new ArrayList<>();
        Map<String, TensorSpec> sharedSpecs = new HashMap<>();
        for (TensorSpec s : attentionShared(p, ATTENTION)) {
            sharedSpecs.put(s.name(), s);
        }
        for (TensorSpec s : MoeSignature.gateParams(p, moe)) {
            sharedSpecs.put(s.name(), s);
        }
        for (TensorSpec s : MoeSignature.sharedParams(p, moe)) {
            sharedSpecs.put(s.name(), s);
        }
        TensorSpec xHc = Dsv4Signature.of(ATTENTION, p).tensor("x_hc");
        for (HostTensor h : program.inputs()) {
            if (sharedSpecs.containsKey(h.name())) {
                inputs.add(new InputSpec(h.name(), h.dtype(), h.shape(),
                        new Dsv4Programs.SpecFill(sharedSpecs.get(h.name()))));
            } else if (h.name().equals("x_hc")) {
                inputs.add(new InputSpec(h.name(), h.dtype(), h.shape(), new StackedFill(List.of(xHc, xHc), true)));
            } else {
                List<TensorSpec> per = new ArrayList<>();
                for (int r = 0; r < RANKS; r++) {
                    int rank = r;
                    per.add(MoeSignature.routedParams(p, moe, rank).stream().filter(s -> s.name().equals(h.name()))
                            .findFirst().orElseThrow());
                }
                inputs.add(new InputSpec(h.name(), h.dtype(), h.shape(), new StackedFill(per, false)));
            }
        }
        return new ProgramSpec("dsv4.prefill_layer", p.name(), program, inputs,
                (in, out) -> golden(p, moe, in, out), comparators(p, ATTENTION, "x_attn", "x_next", DIFF_THD,
                PCT_THD, MoePrograms.MAX_ABS, Set.of("x_hc"), Map.of()), Dsv4Kernels.defaultRuntimeCfg());
    }

    /** Per-rank comparators: the attention's pools and x_out (as {@code xAttn}), and x_next's gate. */
    static Map<String, GoldenComparator> comparators(Dsv4Preset p, Dsv4Program prog, String xAttn, String xNext,
                                                     double diffThd, double pctThd, double maxAbs,
                                                     Set<String> stackedIn, Map<String, String> attnInputs) {
        Map<String, GoldenComparator> c = new LinkedHashMap<>();
        for (TensorSpec s : attentionStacked(p, prog)) {
            if (s.direction() == TensorSpec.Direction.INOUT) {
                c.put(s.name(), new PerRank(new Dsv4Programs.PoolComparator(prog, p, s.name()), RANKS, stackedIn,
                        Map.of()));
            }
        }
        c.put(xAttn, new PerRank(new Dsv4Programs.XOutComparator(prog, p), RANKS, stackedIn, attnInputs));
        c.put(xNext, new PerRank(new MoePrograms.XNext(p, xAttn, diffThd, pctThd, maxAbs), RANKS, stackedIn,
                Map.of(xAttn, xAttn)));
        return c;
    }

    /** Attention golden per rank (its x_hc slice), then the MoE golden over every rank's attention output. */
    static void golden(Dsv4Preset p, Dsv4Moe moe, Map<String, Tensor> in, Map<String, Tensor> out) {
        try (Arena arena = Arena.ofConfined()) {
            List<Tensor> xAttn = attentionGolden(p, ATTENTION, in, in.get("x_hc"), out, "x_attn", arena);
            moeGolden(p, moe, in, xAttn, out.get("x_next"));
        }
    }

    /**
     * Runs the attention golden per rank on {@code xHc}'s slices; writes pools and x_out (as {@code xAttn} when it is
     * an output; otherwise into {@code arena}).
     */
    static List<Tensor> attentionGolden(Dsv4Preset p, Dsv4Program prog, Map<String, Tensor> in, Tensor xHc,
                                        Map<String, Tensor> out, String xAttn, Arena arena) {
        Dsv4Signature sig = Dsv4Signature.of(prog, p);
        List<Tensor> result = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            Map<String, Tensor> all = new HashMap<>(in);
            all.put("x_hc", PerRank.rank(xHc, r));
            for (TensorSpec s : sig.tensors()) {
                if (s.direction() != TensorSpec.Direction.IN) {
                    all.put(s.name(), Tensor.allocate(arena, s.dtype(), s.shape()));
                }
            }
            Dsv4GoldenResult g = Dsv4Golden.run(prog, p, all, arena);
            for (TensorSpec s : sig.tensors()) {
                if (s.direction() == TensorSpec.Direction.INOUT) {
                    Dsv4Programs.copy(g.expected(s.name()), PerRank.rank(out.get(s.name()), r));
                }
            }
            Tensor x = out.containsKey(xAttn) ? PerRank.rank(out.get(xAttn), r)
                    : Tensor.allocate(arena, DType.FP32, g.expected("x_out").shape());
            Dsv4Programs.copy(g.expected("x_out"), x);
            result.add(x);
        }
        return result;
    }

    static void moeGolden(Dsv4Preset p, Dsv4Moe moe, Map<String, Tensor> in, List<Tensor> xAttn, Tensor xNext) {
        List<Map<String, Tensor>> params = new ArrayList<>();
        List<Tensor> outs = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            Map<String, Tensor> prm = new HashMap<>(in);
            for (String n : MoeSignature.ROUTED) {
                prm.put(n, PerRank.rank(in.get(n), r));
            }
            params.add(prm);
            outs.add(PerRank.rank(xNext, r));
        }
        MoeGolden.run(p, moe, xAttn, params, outs);
    }

    /** A tensor stacked per rank: each rank's slice filled by its own rule (or, {@code reseed}, the same rule with
     * a rank-specific seed, so ranks get different tokens). */
    record StackedFill(List<TensorSpec> perRank, boolean reseed) implements InputFill {
        @Override
        public void fill(Tensor target, String name, long seed) {
            for (int r = 0; r < perRank.size(); r++) {
                Dsv4Inputs.fillOne(PerRank.rank(target, r), perRank.get(r), reseed ? seed + 1_000_003L * r : seed);
            }
        }

        @Override
        public String describe() {
            return "per rank (" + perRank.size() + "): " + perRank.getFirst().init().describe()
                    + (reseed ? " (seed + 1000003·rank)" : "");
        }
    }

    static long[] stacked(long[] shape) {
        long[] s = new long[shape.length + 1];
        s[0] = RANKS;
        System.arraycopy(shape, 0, s, 1, shape.length);
        return s;
    }
}
