package dev.jpto.models.dsv4.kernels;

import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.models.dsv4.Dsv4Numerics;
import java.util.Map;

/**
 * CSA's program-specific part (decomposition §3.2, spec §3.7.1–§3.9): the ratio-4 main compressor into cmp_kv,
 * then the indexer — its query path, its own ratio-4 compressor into the int8 index cache, the scores and the
 * top-k — and the index lists the shared sparse attention reads. Every intermediate is a plan allocation of the
 * body scope; the score-init fills run in one depth-2 scope each, as the original's {@code pl.parallel} loop.
 */
final class CsaKernels {
    private static final int RATIO = 4;
    private static final String MAIN = "prefill_compressor_ratio4";
    private static final String INNER = "prefill_indexer_compressor";

    private CsaKernels() {
    }

    static SparseAttnKernels.Keys run(Dsv4Build b, Map<String, TensorVar> v, TensorVar xNormed, TensorVar pos,
                                      TensorVar cache2d, QkvKernels.Out qkv) {
        int t = b.t;
        int hd = b.m.headDim();
        int ihd = b.m.idxHeadDim();
        int count = Math.min(b.preset.maxCmpWrites(RATIO), Dsv4Build.ceilDiv(b.preset.numTokens(), RATIO));
        TensorVar fc = v.get("freqs_cos");
        TensorVar fs = v.get("freqs_sin");

        // main compressor (C1–C6): cmp_kv rows and compress_state
        TensorVar kvp = b.alloc("cmp4_kv_proj_scratch");
        TensorVar scp = b.alloc("cmp4_score_proj_scratch");
        TensorVar pooled = b.alloc(MAIN, "pooled_kv");
        TensorVar normed = b.alloc(MAIN, "normed_kv");
        TensorVar wpos = b.alloc(MAIN, "write_pos_map");
        TensorVar wdst = b.alloc(MAIN, "write_dst_map");
        TensorVar state2d = flat(v.get("compress_state"));
        TensorVar table = column(v.get("compress_state_block_table"));
        CompressorKernels.project(b, "prefill_c4_kv_score_proj", RATIO, Dsv4Build.tileOf(2 * hd, 32), xNormed,
                v.get("cmp_wkv"), v.get("cmp_wgate"), v.get("cmp_ape"), pos, kvp, scp);
        CompressorKernels.writeMap(b, "prefill_c4_write_map", row(v.get("cmp_slot_mapping")), wpos, wdst);
        CompressorKernels.pool4(b, "prefill_c4_softmax_pool", Dsv4Build.tileOf(hd, 256), count, wpos, pos, table,
                state2d, kvp, scp, pooled);
        CompressorKernels.normRope(b, "prefill_c4_rmsnorm_rope", RATIO, count, wpos, pos, pooled,
                v.get("cmp_norm_w"), fc, fs, normed);
        TensorVar cmp2d = flat(v.get("cmp_kv"));
        Scatter.rows(b, "prefill_c4_cache_write", BF16, normed, wdst, cmp2d, true, null);
        stateUpdate(b, "prefill_c4_state_update", kvp, scp, row(v.get("state_slot_mapping")), state2d, pooled);

        // indexer inputs: the half RoPE tables, after the main compressor (its cache write)
        TensorVar idxCos = b.alloc("idx_cos");
        TensorVar idxSin = b.alloc("idx_sin");
        IndexerKernels.halfRope(b, qkv.ropeCos(), qkv.ropeSin(), cmp2d, idxCos, idxSin);
        TensorVar topk = b.alloc("cmp_topk_indices");
        TensorVar scoreOut = b.alloc("idx_score_unused");

        // indexer query path (I1–I4)
        TensorVar qrProj = b.alloc("qr_proj");
        IndexerKernels.qrProj(b, qkv.qr(), v.get("idx_wq_b"), v.get("idx_wq_b_scale"), qkv.qrScale(), qrProj);
        TensorVar qrRope = b.alloc("qr_rope_out");
        IndexerKernels.qrRope(b, qrProj, idxCos, idxSin, qrRope);
        TensorVar qq = b.alloc("qr_hadamard_i8");
        TensorVar qs = b.alloc("qr_hadamard_scale_dq");
        TensorVar hadamard = v.get("hadamard_idx");
        IndexerKernels.qrHadamardQuant(b, qrProj, qrRope, hadamard, qq, qs);
        TensorVar weights = b.alloc("weights");
        IndexerKernels.weightsProj(b, xNormed, v.get("idx_weights_proj"), weights);

        // inner compressor (I5): int8 index keys of the chunk's new compressed rows
        TensorVar ikvp = b.alloc("kv_proj_scratch");
        TensorVar iscp = b.alloc("score_proj_scratch");
        TensorVar ipooled = b.alloc(INNER, "pooled_kv");
        TensorVar inormed = b.alloc(INNER, "normed_kv");
        TensorVar ifinal = b.alloc("final_kv");
        TensorVar iwpos = b.alloc(INNER, "write_pos_map");
        TensorVar iwdst = b.alloc(INNER, "write_dst_map");
        TensorVar istate2d = flat(v.get("inner_compress_state"));
        CompressorKernels.project(b, "prefill_idx_c4_kv_score_proj", RATIO, Dsv4Build.tileOf(2 * ihd, 64), xNormed,
                v.get("inner_wkv"), v.get("inner_wgate"), v.get("inner_ape"), pos, ikvp, iscp);
        CompressorKernels.writeMap(b, "prefill_idx_c4_write_map", row(v.get("idx_slot_mapping")), iwpos, iwdst);
        CompressorKernels.pool4(b, "prefill_idx_c4_softmax_pool", Dsv4Build.tileOf(ihd, 32), count, iwpos, pos,
                column(v.get("inner_compress_state_block_table")), istate2d, ikvp, iscp, ipooled);
        CompressorKernels.normRope(b, "prefill_idx_c4_rmsnorm_rope", RATIO, count, iwpos, pos, ipooled,
                v.get("inner_norm_w"), fc, fs, inormed);
        IndexerKernels.kvHadamard(b, inormed, hadamard, ifinal, count);
        TensorVar idxKv2d = flat(v.get("idx_kv_cache"));
        TensorVar idxScale2d = flat(v.get("idx_kv_scale"));
        IndexerKernels.idxCacheWrite(b, ifinal, iwdst, idxKv2d, idxScale2d);
        stateUpdate(b, "prefill_idx_c4_state_update", ikvp, iscp, row(v.get("inner_state_slot_mapping")), istate2d,
                ipooled);

        // scores (I6–I8) and top-k (I9)
        TensorVar scoreWide = b.alloc("score_wide");
        b.o.forRange("si", t / 16, si -> b.o.scope(() -> SwaIndices.fill(b, "prefill_idx_score_init",
                scoreWide.at(si.times(16), 0).size(16, scoreWide.shape()[1]), Dsv4Numerics.NEG_INF)));
        IndexerKernels.score(b, qq, qs, weights, idxKv2d, idxScale2d, row(v.get("idx_block_table")), pos, scoreWide);
        IndexerKernels.scoreOut(b, scoreWide, scoreOut);
        IndexerKernels.topk(b, scoreOut, pos, topk);

        // index lists: window + the visible top-k, two tokens per task
        TensorVar swa = b.alloc("swa_indices");
        TensorVar cmpIdx = b.alloc("cmp_indices");
        IndexerKernels.sparseIdxTile(b, pos, row(v.get("ori_block_table")), topk, swa, cmpIdx);
        return new SparseAttnKernels.Keys(cache2d, swa, cmp2d, row(v.get("cmp_block_table")), cmpIdx);
    }

    /**
     * The chunk's state rows {@code [kv | score+ape]} at their state slots, after every pool has read the old
     * state: the pooled rows are an extra input, so the update waits for all pools (write-after-read).
     */
    private static void stateUpdate(Dsv4Build b, String name, TensorVar kvp, TensorVar scp, TensorVar slots,
                                    TensorVar state2d, TensorVar pooled) {
        long rows = state2d.shape()[0];
        long out = kvp.shape()[1];
        Scatter.rows(b, name, FP32, kvp, slots, state2d.at(0, 0).size(rows, out), true, pooled);
        Scatter.rows(b, name, FP32, scp, slots, state2d.at(0, out).size(rows, out), true, pooled);
    }

    /** A pool [blocks, rows, (1,) width] as rows [blocks·rows, width]. */
    private static TensorVar flat(TensorVar pool) {
        long[] s = pool.shape();
        return pool.reshape(s[0] * s[1], s[s.length - 1]);
    }

    /** A rank-1 tensor as one column [n, 1]. */
    private static TensorVar column(TensorVar v) {
        return v.reshape(v.shape()[0], 1);
    }

    /** A rank-1 tensor as one row [1, n]. */
    private static TensorVar row(TensorVar v) {
        return v.reshape(1, v.shape()[0]);
    }
}
