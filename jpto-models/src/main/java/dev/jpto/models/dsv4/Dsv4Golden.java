package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;

import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plain-Java golden of the three prefill attention programs, written from the math of the spec (§3) in fp32
 * with fp64 reductions, mirroring the rounding points of §3.13. Inputs are never modified; the expected InOut
 * pools are copies with the golden's writes applied. Runs on the common fork-join pool (2 cores here).
 */
public final class Dsv4Golden {
    private Dsv4Golden() {
    }

    public static Dsv4GoldenResult run(Dsv4Program program, Dsv4Preset preset, Map<String, Tensor> in, Arena arena) {
        return run(program, preset, in, arena, Dsv4Faults.NONE);
    }

    /** As {@link #run(Dsv4Program, Dsv4Preset, Map, Arena)}, with deliberate defects injected (tests only). */
    public static Dsv4GoldenResult run(Dsv4Program program, Dsv4Preset preset, Map<String, Tensor> in, Arena arena,
                                       Dsv4Faults faults) {
        preset.validate(program);
        Dsv4Dims m = preset.dims();
        int t = preset.t();
        int d = m.d();
        int hd = m.headDim();
        int nt = preset.numTokens();
        int[] pos = Arrays32.ints(get(in, "position_ids"));
        float[] x = Arrays32.floats(get(in, "x_hc"));
        Rope rope = new Rope(Arrays32.floats(get(in, "freqs_cos")), Arrays32.floats(get(in, "freqs_sin")),
                m.ropeDim());

        HcStages.Pre pre = HcStages.pre(x, Arrays32.floats(get(in, "hc_attn_fn")),
                Arrays32.floats(get(in, "hc_attn_scale")), Arrays32.floats(get(in, "hc_attn_base")), m, t);
        float[] xNormed = QkvStage.rmsNorm(pre.xMixed(), Arrays32.floats(get(in, "attn_norm_w")), t, d, m.eps());
        QkvStage.Qkv qkv = QkvStage.compute(xNormed, Arrays32.f32InPlace(get(in, "wq_a")),
                Arrays32.i8InPlace(get(in, "wq_b")),
                Arrays32.floats(get(in, "wq_b_scale")), Arrays32.f32InPlace(get(in, "wkv")),
                Arrays32.floats(get(in, "gamma_cq")), Arrays32.floats(get(in, "gamma_ckv")), rope, pos, nt, m, t);

        Map<String, Tensor> expected = new LinkedHashMap<>();
        // cache-first: the chunk's kv rows land in kv_cache before anything reads keys
        float[] kvCache = Arrays32.floats(get(in, "kv_cache"));
        int[] oriSlots = Arrays32.ints(get(in, "ori_slot_mapping"));
        for (int r = 0; r < nt; r++) {
            if (oriSlots[r] >= 0) {
                System.arraycopy(qkv.kv(), r * hd, kvCache, oriSlots[r] * hd, hd);
            }
        }
        int[] oriTable = Arrays32.ints(get(in, program == Dsv4Program.SWA ? "block_table" : "ori_block_table"));
        int[] swa = windowIndices(pos, nt, oriTable, m.win(), preset.pools().blockSize(), t);

        float[] cmpFlat = null;
        int[] cmpTable = null;
        int[] cmpIdx = null;
        int cmpIdxCols = m.idxTopk();
        Compressors.Chunk chunk = new Compressors.Chunk(xNormed, pos, preset.startPos(), nt, d, m.eps(),
                m.maxSeqLen(), rope, m.ropeDim());
        if (program == Dsv4Program.CSA) {
            cmpFlat = Arrays32.floats(get(in, "cmp_kv"));
            cmpTable = Arrays32.ints(get(in, "cmp_block_table"));
            cmpIdx = runCsa(preset, in, arena, chunk, qkv, cmpFlat, rope, pos, nt, expected);
        } else if (program == Dsv4Program.HCA) {
            cmpFlat = Arrays32.floats(get(in, "cmp_kv"));
            cmpTable = Arrays32.ints(get(in, "cmp_block_table"));
            runHca(preset, in, arena, chunk, cmpFlat, expected);
            cmpIdx = new int[t * cmpIdxCols];
            Arrays.fill(cmpIdx, -1);
            for (int r = 0; r < nt; r++) {
                int n = Math.min(Math.min((pos[r] + 1) / 128, m.idxTopk()),
                        preset.pools().cmpMaxBlocks() * preset.pools().blockSize());
                for (int c = 0; c < n; c++) {
                    cmpIdx[r * cmpIdxCols + c] = c;
                }
            }
        }
        float[] ob = SparseAttention.attend(qkv.q(), kvCache, swa, cmpFlat, cmpTable, cmpIdx, cmpIdxCols,
                Arrays32.floats(get(in, "attn_sink")), rope, pos, nt, preset, faults);
        float[] attnOut = SparseAttention.project(ob, Arrays32.f32InPlace(get(in, "wo_a")),
                Arrays32.i8InPlace(get(in, "wo_b")),
                Arrays32.floats(get(in, "wo_b_scale")), m, t);

        int hc = m.hcMult();
        float[] xOut = new float[t * hc * d];
        float[] share = new float[t * hc * d];
        float[] residual = new float[t * hc * d];
        HcStages.post(attnOut, x, pre.post(), pre.comb(), t, nt, hc, d, xOut, share, residual);

        expected.put("kv_cache", copyOf(get(in, "kv_cache"), kvCache, arena));
        if (cmpFlat != null) {
            expected.put("cmp_kv", copyOf(get(in, "cmp_kv"), cmpFlat, arena));
        }
        expected.put("x_out", tensor(arena, xOut, t, hc, d));
        Map<String, Tensor> ordered = new LinkedHashMap<>();
        for (String name : Dsv4Signature.of(program, preset).validated().stream().map(TensorSpec::name).toList()) {
            ordered.put(name, expected.get(name));
        }
        return new Dsv4GoldenResult(ordered, tensor(arena, share, t, hc, d), tensor(arena, residual, t, hc, d),
                new Dsv4GoldenResult.Trace(qkv.q(), qkv.kv(), ob, attnOut, pre.post(), pre.comb(), swa,
                        program == Dsv4Program.SWA ? null : cmpIdx, cmpIdxCols));
    }

    /** Main compressor → cmp_kv and compress_state; indexer (inner compressor first) → cmp indices. */
    private static int[] runCsa(Dsv4Preset p, Map<String, Tensor> in, Arena arena, Compressors.Chunk chunk,
                                QkvStage.Qkv qkv, float[] cmpFlat, Rope rope, int[] pos, int nt,
                                Map<String, Tensor> expected) {
        Dsv4Dims m = p.dims();
        int t = p.t();
        int hd = m.headDim();
        int ihd = m.idxHeadDim();
        float[] state = Arrays32.floats(get(in, "compress_state"));
        int[] cmpSlots = Arrays32.ints(get(in, "cmp_slot_mapping"));
        float[][] rows = Compressors.run(chunk, new Compressors.Weights(Arrays32.floats(get(in, "cmp_wkv")),
                        Arrays32.floats(get(in, "cmp_wgate")), Arrays32.floats(get(in, "cmp_ape")),
                        Arrays32.floats(get(in, "cmp_norm_w")), hd, 4), state,
                Arrays32.ints(get(in, "compress_state_block_table")), Dsv4Pools.CSA_STATE_BLOCK_ROWS, cmpSlots,
                Arrays32.ints(get(in, "state_slot_mapping")), t);
        for (int r = 0; r < nt; r++) {
            if (rows[r] != null) {
                for (int j = 0; j < hd; j++) {
                    cmpFlat[cmpSlots[r] * hd + j] = Dsv4Numerics.bf16(rows[r][j]);
                }
            }
        }
        expected.put("compress_state", copyOf(get(in, "compress_state"), state, arena));

        float[] innerState = Arrays32.floats(get(in, "inner_compress_state"));
        int[] idxSlots = Arrays32.ints(get(in, "idx_slot_mapping"));
        float[][] inner = Compressors.run(chunk, new Compressors.Weights(Arrays32.floats(get(in, "inner_wkv")),
                        Arrays32.floats(get(in, "inner_wgate")), Arrays32.floats(get(in, "inner_ape")),
                        Arrays32.floats(get(in, "inner_norm_w")), ihd, 4), innerState,
                Arrays32.ints(get(in, "inner_compress_state_block_table")), Dsv4Pools.CSA_STATE_BLOCK_ROWS, idxSlots,
                Arrays32.ints(get(in, "inner_state_slot_mapping")), t);
        byte[] idxKv = Arrays32.bytes(get(in, "idx_kv_cache"));
        float[] idxScale = Arrays32.floats(get(in, "idx_kv_scale"));
        float[] hadamard = Arrays32.floats(get(in, "hadamard_idx"));
        int[] codes = new int[ihd];
        for (int r = 0; r < nt; r++) {
            if (inner[r] != null) {
                idxScale[idxSlots[r]] = CsaIndexer.quantizeKey(inner[r], hadamard, codes);
                for (int j = 0; j < ihd; j++) {
                    idxKv[idxSlots[r] * ihd + j] = (byte) codes[j];
                }
            }
        }
        int[] topk = CsaIndexer.topk(chunk.xNormed(), qkv.qr(), qkv.qrScale(), Arrays32.bytes(get(in, "idx_wq_b")),
                Arrays32.floats(get(in, "idx_wq_b_scale")), hadamard, Arrays32.floats(get(in, "idx_weights_proj")),
                idxKv, idxScale, Arrays32.ints(get(in, "idx_block_table")), rope, pos, nt, p);
        Tensor idxKvT = Tensor.allocate(arena, DType.INT8, get(in, "idx_kv_cache").shape());
        for (int i = 0; i < idxKv.length; i++) {
            idxKvT.setDouble(i, idxKv[i]);
        }
        expected.put("idx_kv_cache", idxKvT);
        expected.put("idx_kv_scale", copyOf(get(in, "idx_kv_scale"), idxScale, arena));
        expected.put("inner_compress_state", copyOf(get(in, "inner_compress_state"), innerState, arena));
        // compressed index assembly: keep top-k entries that are visible and in range
        int k = m.idxTopk();
        int[] cmpIdx = new int[t * k];
        Arrays.fill(cmpIdx, -1);
        for (int r = 0; r < nt; r++) {
            int visible = (pos[r] + 1) / 4;
            for (int c = 0; c < Math.min(k, visible); c++) {
                int v = topk[r * k + c];
                if (v >= 0 && v < visible) {
                    cmpIdx[r * k + c] = v;
                }
            }
        }
        return cmpIdx;
    }

    private static void runHca(Dsv4Preset p, Map<String, Tensor> in, Arena arena, Compressors.Chunk chunk,
                               float[] cmpFlat, Map<String, Tensor> expected) {
        int hd = p.dims().headDim();
        float[] state = Arrays32.floats(get(in, "compress_state"));
        int[] cmpSlots = Arrays32.ints(get(in, "cmp_slot_mapping"));
        float[][] rows = Compressors.run(chunk, new Compressors.Weights(Arrays32.floats(get(in, "cmp_wkv")),
                        Arrays32.floats(get(in, "cmp_wgate")), Arrays32.floats(get(in, "cmp_ape")),
                        Arrays32.floats(get(in, "cmp_norm_w")), hd, 128), state,
                Arrays32.ints(get(in, "compress_state_block_table")), Dsv4Pools.HCA_STATE_BLOCK_ROWS, cmpSlots,
                Arrays32.ints(get(in, "state_slot_mapping")), p.t());
        for (int r = 0; r < chunk.numTokens(); r++) {
            if (rows[r] != null) {
                for (int j = 0; j < hd; j++) {
                    cmpFlat[cmpSlots[r] * hd + j] = Dsv4Numerics.bf16(rows[r][j]);
                }
            }
        }
        expected.put("compress_state", copyOf(get(in, "compress_state"), state, arena));
    }

    /** swa_indices (§3.6): oldest key first, the token itself last; −1 for unused columns and padding rows. */
    static int[] windowIndices(int[] pos, int nt, int[] table, int win, int blockSize, int t) {
        int[] idx = new int[t * win];
        Arrays.fill(idx, -1);
        for (int r = 0; r < nt; r++) {
            int n = Math.min(win, pos[r] + 1);
            int first = pos[r] + 1 - n;
            for (int k = 0; k < n; k++) {
                int key = first + k;
                int blk = table[key / blockSize];
                if (blk >= 0) {
                    idx[r * win + k] = blk * blockSize + key % blockSize;
                }
            }
        }
        return idx;
    }

    private static Tensor get(Map<String, Tensor> in, String name) {
        Tensor t = in.get(name);
        if (t == null) {
            throw new IllegalArgumentException("golden input '" + name + "' is missing; got " + in.keySet());
        }
        return t;
    }

    private static Tensor copyOf(Tensor like, float[] values, Arena arena) {
        Tensor t = Tensor.allocate(arena, like.dtype(), like.shape());
        Arrays32.store(t, values);
        return t;
    }

    private static Tensor tensor(Arena arena, float[] values, long... shape) {
        Tensor t = Tensor.allocate(arena, DType.FP32, shape);
        Arrays32.store(t, values);
        return t;
    }
}
