package dev.jpto.models.dsv4.kernels;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.models.dsv4.Dsv4Golden;
import dev.jpto.models.dsv4.Dsv4GoldenResult;
import dev.jpto.models.dsv4.Dsv4Inputs;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import dev.jpto.models.dsv4.Dsv4Signature;
import dev.jpto.models.dsv4.Dsv4Validation;
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

/**
 * The {@code dsv4.*} registry entries: signature inputs as generated inputs, the plain-Java golden, the spec's
 * comparators (x_out: the original's ratio_reldiff plus the attention-share check; InOut pools: mapped-pool),
 * and the default runtime_cfg of {@link Dsv4Kernels#defaultRuntimeCfg()}. The runner starts outputs at zero, so
 * InOut pools start at zero: true for every preset here (chunk start 0: no cache prefix); a preset with a prefix
 * is refused when its spec is built.
 */
public final class Dsv4Programs {
    private Dsv4Programs() {
    }

    /** The three prefill attention programs. */
    public static List<ProgramDef> all() {
        return List.of(def(Dsv4Program.SWA), def(Dsv4Program.CSA), def(Dsv4Program.HCA));
    }

    static ProgramDef def(Dsv4Program prog) {
        return new PresetProgram<>(prog.programName(), "DeepSeek-V4 prefill attention (" + prog.name()
                + "): hc_pre, qkv+RoPE, sparse attention with sinks, grouped int8 output projection, hc_post",
                presets(), Dsv4Preset::name, "tiny", p -> spec(prog, p));
    }

    /**
     * The common presets and {@code tiny_chunk2}: tiny's second prefill chunk (start_pos 128), so the InOut pools
     * start from the first chunk's state, non-zero, as in the original's chunked prefill.
     */
    static List<Dsv4Preset> presets() {
        Dsv4Preset tiny = Dsv4Preset.tiny();
        List<Dsv4Preset> all = new ArrayList<>(Dsv4Preset.all());
        all.add(1, new Dsv4Preset("tiny_chunk2", tiny.dims(), tiny.rope(), tiny.pools(), 128, 128, tiny.sinkInit()));
        return List.copyOf(all);
    }

    static ProgramSpec spec(Dsv4Program prog, Dsv4Preset preset) {
        Dsv4Signature sig = Dsv4Signature.of(prog, preset);
        List<InputSpec> inputs = new ArrayList<>();
        Map<String, GoldenComparator> comparators = new LinkedHashMap<>();
        // an InOut pool's initial value is a fill of its own, so --save-tensors saves it under inputs/
        Map<String, InputFill> poolFills = new LinkedHashMap<>();
        for (TensorSpec s : sig.tensors()) {
            if (s.direction() == TensorSpec.Direction.IN) {
                inputs.add(new InputSpec(s.name(), s.dtype(), s.shape(), new SpecFill(s)));
            } else if (s.direction() == TensorSpec.Direction.INOUT) {
                poolFills.put(s.name(), new SpecFill(s));
                comparators.put(s.name(), new PoolComparator(prog, preset, s.name()));
            } else {
                comparators.put(s.name(), new XOutComparator(prog, preset));
            }
        }
        return new ProgramSpec(prog.programName(), preset.name(), Dsv4Kernels.build(prog, preset), inputs,
                (in, out) -> golden(prog, preset, sig, in, out), comparators, Dsv4Kernels.defaultRuntimeCfg(),
                poolFills);
    }

    private static void golden(Dsv4Program prog, Dsv4Preset preset, Dsv4Signature sig, Map<String, Tensor> in,
                               Map<String, Tensor> out) {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Tensor> all = new HashMap<>(in);
            for (TensorSpec s : sig.tensors()) {
                if (s.direction() != TensorSpec.Direction.IN) {
                    // the initial value the runner gave the output (an InOut pool's fill, else zeros), as on chip;
                    // read in place: the golden never writes its inputs, and out is written only after it
                    all.put(s.name(), out.get(s.name()));
                }
            }
            Dsv4GoldenResult g = Dsv4Golden.run(prog, preset, all, arena);
            for (Map.Entry<String, Tensor> e : out.entrySet()) {
                copy(g.expected(e.getKey()), e.getValue());
            }
        }
    }

    /** {@code dst ← src}: one bulk copy when both are contiguous of one dtype, else element by element. */
    static void copy(Tensor src, Tensor dst) {
        if (src.dtype() == dst.dtype() && src.isContiguous() && dst.isContiguous()
                && java.util.Arrays.equals(src.shape(), dst.shape())) {
            long b = src.dtype().byteSize();
            java.lang.foreign.MemorySegment.copy(src.buffer(), src.offset() * b, dst.buffer(), dst.offset() * b,
                    src.numel() * b);
        } else {
            dst.copyFrom(src);
        }
    }

    /** One signature input generated by its DSv4 rule. */
    record SpecFill(TensorSpec spec) implements InputFill {
        @Override
        public void fill(Tensor target, String name, long seed) {
            Dsv4Inputs.fillOne(target, spec, seed);
        }

        @Override
        public String describe() {
            return spec.init().describe();
        }
    }

    /** x_out: the original's ratio_reldiff, then the attention share against a recomputed residual mix. */
    record XOutComparator(Dsv4Program prog, Dsv4Preset preset) implements GoldenComparator {
        @Override
        public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
            double[] thr = Dsv4Validation.xOutThresholds(prog, preset.startPos());
            int nt = preset.numTokens();
            Dsv4Validation.RatioResult r = Dsv4Validation.ratioReldiff(actual, expected, thr[0], thr[1], thr[2], nt);
            Dsv4Validation.ShareResult s = Dsv4Validation.attentionShare(actual, expected,
                    Dsv4Validation.residualMix(preset, context.inputs()), nt);
            boolean pass = r.pass() && s.pass();
            String d = String.format(java.util.Locale.ROOT, "%s bad=%d (allowed %d)%s; attention share relL2=%.5f"
                            + " (<= %.2f) gain=%.5f (1 ± %.3f)%s", name(), r.bad(), r.allowed(),
                    r.pass() ? "" : " " + r.reason(), s.relL2(), Dsv4Validation.SHARE_REL_L2, s.gain(),
                    Dsv4Validation.SHARE_GAIN, s.pass() ? "" : " FAILED");
            return new CompareResult(pass, actual.numel(), r.bad(), Double.NaN, Double.NaN, List.of(), d);
        }

        @Override
        public String name() {
            double[] thr = Dsv4Validation.xOutThresholds(prog, preset.startPos());
            return "ratio_reldiff(diff_thd=" + thr[0] + ", pct_thd=" + thr[1] + ") + attention_share";
        }
    }

    /** An InOut pool: untouched rows bitwise, mapped rows within the original's per-pool tolerance. */
    record PoolComparator(Dsv4Program prog, Dsv4Preset preset, String pool) implements GoldenComparator {
        @Override
        public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
            Dsv4Validation.PoolTolerance tol = Dsv4Validation.poolTolerance(prog, pool);
            Tensor mapping = context.inputs().get(tol.mapping());
            if (mapping == null) {
                return new CompareResult(false, 0, 0, Double.NaN, Double.NaN, List.of(), name()
                        + ": mapping input '" + tol.mapping() + "' is missing");
            }
            Dsv4Validation.PoolResult r = Dsv4Validation.mappedPool(actual, expected, mapping, preset.numTokens(),
                    tol);
            return new CompareResult(r.pass(), actual.numel(), r.bad(), Double.NaN, Double.NaN, List.of(),
                    name() + " mapped rows " + r.mappedRows() + ", bad " + r.bad() + " (allowed " + r.allowed() + ")"
                            + (r.pass() ? "" : " " + r.reason()));
        }

        @Override
        public String name() {
            Dsv4Validation.PoolTolerance tol = Dsv4Validation.poolTolerance(prog, pool);
            return "mapped_pool(" + tol.mapping() + ", atol=" + tol.atol() + ", rtol=" + tol.rtol() + ")";
        }
    }
}
