package dev.jpto.models.dsv4.kernels;

import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import dev.jpto.models.dsv4.Dsv4Signature;
import dev.jpto.models.dsv4.TensorSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * The three DSv4 prefill attention programs as DSL programs, following the original's task decomposition
 * ({@code docs/dsv4-decomposition.md}): the orchestration body opens one scope (depth 1, ring 1) in which every
 * heap intermediate is allocated; only the manual-scope projection and the {@code if num_tokens} bodies open a
 * second (depth 2, ring 2). Program inputs follow the signature's order; InOut pools and x_out are the outputs.
 */
public final class Dsv4Kernels {
    private Dsv4Kernels() {
    }

    /**
     * Every DSv4 program's default {@code runtime_cfg}: 1 GiB of heap on every ring (the attention's ring 1 peaks at
     * 289–298 MiB at pro, above the 256 MiB default). The dependency pool stays at its default: with each of the
     * original's grids one SPMD task, the plan needs at most 348 entries on ring 1 and 1216 on ring 2 for the
     * attention at pro, and 5376 on ring 2 for a rank's routed experts (docs/dsv4-rings.md).
     */
    public static Map<String, String> defaultRuntimeCfg() {
        return Map.of("ring_heap", "1GiB");
    }

    public static Program build(Dsv4Program program, Dsv4Preset preset) {
        return build(program, preset, Dsv4Faults.NONE);
    }

    /** As {@link #build(Dsv4Program, Dsv4Preset)}, with deliberate defects compiled into the kernels (tests). */
    public static Program build(Dsv4Program program, Dsv4Preset preset, Dsv4Faults faults) {
        Dsv4Signature sig = Dsv4Signature.of(program, preset);
        Dsv4Build b = new Dsv4Build(program.originalName(), program, preset, faults);
        Map<String, TensorVar> v = new HashMap<>();
        for (TensorSpec s : sig.tensors()) {
            if (s.direction() == TensorSpec.Direction.IN) {
                v.put(s.name(), b.p.input(s.name(), s.dtype(), s.shape()));
            }
        }
        for (TensorSpec s : sig.tensors()) {
            if (s.direction() != TensorSpec.Direction.IN) {
                v.put(s.name(), b.p.output(s.name(), s.dtype(), s.shape()));
            }
        }
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> body(b, v));
        });
        return b.p.build();
    }

    private static void body(Dsv4Build b, Map<String, TensorVar> v) {
        int t = b.t;
        int d = b.m.d();
        int hc = b.m.hcMult();
        int hd = b.m.headDim();
        TensorVar xHc = v.get("x_hc").reshape(t, (long) hc * d);
        TensorVar pos = v.get("position_ids").reshape(t, 1);
        HcPreStage.Out pre = HcPreStage.run(b, xHc, v.get("hc_attn_fn"), v.get("hc_attn_scale"),
                v.get("hc_attn_base"));
        TensorVar xNormed = HcPreStage.rmsNorm(b, pre.xMixed(), v.get("attn_norm_w"));
        b.barrier(QkvKernels.LATE_DEP, HcPreStage.RMS_NORM); // kv_proj waits one hop so qr_proj dispatches first
        QkvKernels.Out qkv = QkvKernels.run(b, xNormed, pos, v.get("freqs_cos"), v.get("freqs_sin"), v.get("wq_a"),
                v.get("wq_b"), v.get("wq_b_scale"), v.get("wkv"), v.get("gamma_cq"), v.get("gamma_ckv"));
        TensorVar cache = v.get("kv_cache");
        TensorVar cache2d = cache.reshape(cache.shape()[0] * cache.shape()[1], hd);
        String prefix = "prefill_" + b.program.name().toLowerCase(java.util.Locale.ROOT);
        QkvKernels.cacheWrite(b, prefix + "_cache_write", qkv.kv(), v.get("ori_slot_mapping"), cache2d,
                qkv.qr());

        SparseAttnKernels.Keys keys = switch (b.program) {
            case SWA -> swaKeys(b, v, pos, cache2d);
            case HCA -> HcaKernels.run(b, v, xNormed, pos, cache2d);
            case CSA -> CsaKernels.run(b, v, xNormed, pos, cache2d, qkv);
        };
        TensorVar attnOut = b.alloc("attn_out");
        TensorVar oPacked = SparseAttnKernels.attend(b, qkv.q(), keys, qkv.ropeCos(), qkv.ropeSin(), qkv.swapIdx(),
                v.get("attn_sink"));
        OutProjKernels.project(b, oPacked, v.get("wo_a"), v.get("wo_b"), v.get("wo_b_scale"), attnOut);
        OutProjKernels.hcPost(b, attnOut, v.get("x_hc"), pre.post(), pre.comb(), v.get("x_out"));
    }

    /** §3.1: window indices, and empty compressed sources (a zero table, −1 indices, an unwritten cmp_kv). */
    private static SparseAttnKernels.Keys swaKeys(Dsv4Build b, Map<String, TensorVar> v, TensorVar pos,
                                                  TensorVar cache2d) {
        TensorVar swa = b.alloc("swa_indices");
        TensorVar table = v.get("block_table");
        SwaIndices.windowIndices(b, "prefill_swa_window_indices", pos, table.reshape(1, table.shape()[0]), swa);
        TensorVar cmpTable = b.alloc("cmp_block_table_dummy");
        SwaIndices.fill(b, "prefill_swa_dummy_cmp_table", cmpTable, 0);
        TensorVar cmpKv = b.alloc("cmp_kv_dummy");
        TensorVar cmpIdx = b.alloc("cmp_indices_dummy");
        // the whole [128, 1024] int32 table in one tile would not fit the UB
        SwaIndices.fill(b, "prefill_swa_empty_cmp_meta", cmpIdx, -1, 32, 512);
        long[] s = cmpKv.shape();
        return new SparseAttnKernels.Keys(cache2d, swa, cmpKv.reshape(s[0] * s[1], b.m.headDim()), cmpTable, cmpIdx);
    }
}
