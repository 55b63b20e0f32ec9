package dev.jpto.models.dsv4.kernels;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Validation;
import dev.jpto.models.dsv4.MoeGolden;
import dev.jpto.models.dsv4.MoeSignature;
import dev.jpto.models.dsv4.TensorSpec;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code dsv4.moe} registry entry: the one-chip MoE FFN with its plain-Java golden. */
public final class MoePrograms {
    /** The original's MoE x_next gate: ratio_reldiff(diff_thd=5e-3, pct_thd=0.05) and max |diff| ≤ 0.25. */
    static final double DIFF_THD = 5e-3;
    static final double PCT_THD = 0.05;
    static final double MAX_ABS = 0.25;

    private MoePrograms() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>("dsv4.moe", "DeepSeek-V4 MoE FFN on one chip: hc_pre, router (sqrt-softplus, "
                + "biased top-k), shared + routed SwiGLU experts (int8), combine, hc_post", Dsv4Preset.all(),
                Dsv4Preset::name, "tiny", MoePrograms::spec);
    }

    static ProgramSpec spec(Dsv4Preset p) {
        List<TensorSpec> sig = MoeSignature.standalone(p);
        List<InputSpec> inputs = new ArrayList<>();
        for (TensorSpec s : sig) {
            if (s.direction() == TensorSpec.Direction.IN) {
                inputs.add(new InputSpec(s.name(), s.dtype(), s.shape(), new Dsv4Programs.SpecFill(s)));
            }
        }
        return new ProgramSpec("dsv4.moe", p.name(), Dsv4MoeKernels.standalone(p), inputs,
                (in, out) -> MoeGolden.standalone(p, in, out.get("x_next")), Map.of("x_next", xNextComparator(p)),
                Dsv4Kernels.defaultRuntimeCfg());
    }

    /** The x_next gate of the one-chip MoE (x_hc is its input). */
    static GoldenComparator xNextComparator(Dsv4Preset p) {
        return new XNext(p, "x_hc", DIFF_THD, PCT_THD, MAX_ABS);
    }

    /**
     * x_next: the original's ratio_reldiff (the MoE's 5e-3 / 0.05) with a cap on max |diff| (0.25), and — beyond the original, whose
     * gate barely sees the FFN (x_next is dominated by the residual mix) — the FFN share
     * {@code x_next − Σ_i x_hc·comb} against the golden's with relative L2 ≤ 3 % and gain 1 ± 0.003
     * ({@link Dsv4Validation#attentionShare}). {@code xHcInput} names the input x_next mixes.
     */
    record XNext(Dsv4Preset preset, String xHcInput, double diffThd, double pctThd, double maxAbs)
            implements GoldenComparator {
        @Override
        public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
            CompareResult r = Comparators.ratioReldiff(diffThd, pctThd).compare(actual, expected, context);
            double worst = 0;
            for (long i = 0; i < actual.numel() && actual.numel() == expected.numel(); i++) {
                worst = Math.max(worst, Math.abs(actual.getDouble(i) - expected.getDouble(i)));
            }
            Tensor xHc = context.inputs().get(xHcInput);
            if (xHc == null || actual.numel() != expected.numel()) {
                return new CompareResult(false, actual.numel(), 0, Double.NaN, Double.NaN, List.of(), name()
                        + ": input '" + xHcInput + "' is missing or the shapes differ");
            }
            float[] residual = Dsv4Validation.residualMix(preset, xHc, context.inputs(), "hc_ffn");
            Dsv4Validation.ShareResult s = Dsv4Validation.attentionShare(actual, expected, residual,
                    preset.numTokens());
            boolean ok = r.passed() && worst <= maxAbs && s.pass();
            String d = r.description() + String.format(java.util.Locale.ROOT, "; max |diff| %.4g (<= %.3g)%s"
                            + "; ffn share relL2=%.5f (<= %.2f) gain=%.5f (1 ± %.3f)%s", worst, maxAbs,
                    worst <= maxAbs ? "" : " FAILED", s.relL2(), Dsv4Validation.SHARE_REL_L2, s.gain(),
                    Dsv4Validation.SHARE_GAIN, s.pass() ? "" : " FAILED");
            return new CompareResult(ok, r.numel(), r.mismatchCount(), worst, r.maxRelError(), r.firstMismatches(), d);
        }

        @Override
        public String name() {
            return "ratio_reldiff(diff_thd=" + diffThd + ", pct_thd=" + pctThd + ") + max_abs_diff(" + maxAbs
                    + ") + ffn_share";
        }
    }
}
