package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;
import static dev.jpto.isa.DType.INT64;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.DType;
import dev.jpto.isa.op.Fn;
import java.util.Map;

/**
 * HCA's ratio-128 compressor (decomposition §3.3, spec §3.7) and its index lists: projections with the
 * positional bias, the chunk's state rows written first, then one pool per closing window read entirely from the
 * state (softmax per channel over 128 positions), RMS·norm_w and RoPE at the window start, the bf16 row into
 * cmp_kv; window indices through ori_block_table and compressed indices 0..(pos+1)/128−1.
 */
final class HcaKernels {
    private static final int RATIO = 128;
    private static final int STATE_ROWS = 8;

    private HcaKernels() {
    }

    static SparseAttnKernels.Keys run(Dsv4Build b, Map<String, TensorVar> v, TensorVar xNormed, TensorVar pos,
                                      TensorVar cache2d) {
        int t = b.t;
        int hd = b.m.headDim();
        int d = b.m.d();
        TensorVar kvp = b.alloc("kv_proj_scratch");
        TensorVar scp = b.alloc("score_proj_scratch");
        TensorVar pooled = b.alloc("pooled_kv_pad");
        TensorVar normed = b.alloc("normed_kv_pad");
        TensorVar writePos = b.alloc("write_pos_map");
        TensorVar writeDst = b.alloc("write_dst_map");
        SwaIndices.fill(b, "prefill_hca_c128_norm_pad_init", pooled, 0);
        SwaIndices.fill(b, "prefill_hca_c128_norm_pad_init_normed", normed, 0);

        // projections: 32 output columns per task, all rows; score += ape[pos mod 128]
        CompressorKernels.project(b, "prefill_hca_c128_kv_score_proj", RATIO, Dsv4Build.tileOf(hd, 32), xNormed,
                v.get("cmp_wkv"), v.get("cmp_wgate"), v.get("cmp_ape"), pos, kvp, scp);

        // write map: the (at most one) token closing a 128-window, and its cmp slot
        CompressorKernels.writeMap(b, "prefill_hca_c128_write_map", v.get("cmp_slot_mapping").reshape(1, t), writePos,
                writeDst);

        // state rows of the chunk first ([kv | score] at state_slot_mapping), so the pool reads only the state
        TensorVar state = v.get("compress_state");
        long[] ss = state.shape();
        TensorVar state2d = state.reshape(ss[0] * ss[1], ss[2]);
        TensorVar stateSlots = v.get("state_slot_mapping").reshape(1, t);
        Scatter.rows(b, "prefill_hca_c128_state_scatter_pre", FP32, kvp, stateSlots,
                state2d.at(0, 0).size(ss[0] * ss[1], hd), true, null);
        Scatter.rows(b, "prefill_hca_c128_state_scatter_pre", FP32, scp, stateSlots,
                state2d.at(0, hd).size(ss[0] * ss[1], hd), true, null);

        // softmax pool of the closing window: 64 channels per task
        TensorVar table = v.get("compress_state_block_table");
        long tableLen = table.shape()[0];
        int cc = Dsv4Build.tileOf(hd, 64);
        int maxSeq = b.m.maxSeqLen();
        KernelRef pool = b.aiv("prefill_hca_c128_softmax_pool", kb -> {
            KTensor wp = kb.input("write_pos_map", INT32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor tb = kb.input("state_table", INT32, 2);
            KTensor st = kb.input("state", FP32, 2);
            KTensor o = kb.output("pooled", FP32, 2);
            KScalar c0 = kb.scalar("c0");
            KTile w = windowEnd(kb, wp, p);
            KTile k = kb.tile("k", INT32, 1, RATIO);
            KTile a = kb.tile("a", INT32, 1, RATIO);
            KTile ac = kb.tile("ac", INT32, RATIO, 1);
            KTile blk = kb.tile("blk", INT32, RATIO, 1);
            KTile off = kb.tile("off", INT32, RATIO, 1);
            KTile g = kb.tile("g", INT32, RATIO, 1);
            KTile vm = kb.tile("vm", BOOL, RATIO, 1);
            KTile valid = kb.tile("valid", INT32, RATIO, 1);
            KTile zero1 = kb.tile("zero1", INT32, RATIO, 1);
            KTile kv = kb.tile("kv", FP32, RATIO, cc);
            KTile sc = kb.tile("sc", FP32, RATIO, cc);
            KTile zf = kb.tile("zf", FP32, RATIO, cc);
            KTile vf = kb.tile("vf", FP32, RATIO, 1);
            KTile mh = kb.tile("mh", BOOL, RATIO, cc);
            KTile m = kb.tile("m", FP32, 1, cc);
            KTile l = kb.tile("l", FP32, 1, cc);
            KTile acc = kb.tile("acc", FP32, 1, cc);
            // positions a = w−127 .. w; state row = table[a/8]·8 + a mod 8, valid when 0 ≤ a < MAX_SEQ and mapped
            // (table entries gathered from GM, the table passed as a column)
            kb.iota(k, Fn.Axis.COLS, 1 - RATIO).rowBroadcast(Fn.Binary.ADD, a, k, w).transpose(ac, a)
                    .fill(zero1, 0).fill(valid, 1)
                    .compareScalar(Fn.Compare.GE, vm, ac, 0).select(valid, vm, valid, zero1)
                    .compareScalar(Fn.Compare.LT, vm, ac, maxSeq).select(valid, vm, valid, zero1)
                    .binaryScalar(Fn.Binary.MAX, ac, ac, 0).binaryScalar(Fn.Binary.MIN, ac, ac, maxSeq - 1)
                    .binaryScalar(Fn.Binary.DIV, blk, ac, STATE_ROWS).muls(off, blk, STATE_ROWS).sub(off, ac, off)
                    .loadRows(g, tb, blk, 0, 0)
                    .compareScalar(Fn.Compare.GE, vm, g, 0).select(valid, vm, valid, zero1)
                    .binaryScalar(Fn.Binary.MAX, g, g, 0).muls(g, g, STATE_ROWS).add(off, g, off)
                    .fill(zf, 0);
            Tiles.columnMaskViaFloat(kb, mh, valid, vf, zf, kv);
            kb.loadRows(kv, st, off, 0, c0).loadRows(sc, st, off, 0, c0.plus(hd))
                    .select(kv, mh, kv, zf).select(sc, mh, sc, zf)
                    .reduce(Fn.Reduce.MAX, Fn.Axis.COLS, m, sc).colBroadcast(Fn.Binary.SUB, sc, sc, m).exp(sc, sc)
                    .reduce(Fn.Reduce.SUM, Fn.Axis.COLS, l, sc).mul(kv, kv, sc)
                    .reduce(Fn.Reduce.SUM, Fn.Axis.COLS, acc, kv).div(acc, acc, l).store(acc, o, 0, 0);
        });
        TensorVar table2 = table.reshape(tableLen, 1);
        b.grid(hd / cc, pool, c -> Dsv4Build.args(in(writePos), in(pos), in(table2), in(state2d),
                outExisting(pooled.at(0, c.times(cc)).size(1, cc)), scalar(c.times(cc))));

        // RMS · norm_w, forward RoPE at the window start w + 1 − 128
        CompressorKernels.normRope(b, "prefill_hca_c128_rmsnorm_rope", RATIO, 1, writePos, pos, pooled,
                v.get("cmp_norm_w"), v.get("freqs_cos"), v.get("freqs_sin"), normed);

        // bf16 row into cmp_kv at the closing token's cmp slot
        TensorVar cmp = v.get("cmp_kv");
        long[] cs = cmp.shape();
        TensorVar cmp2d = cmp.reshape(cs[0] * cs[1], hd);
        Scatter.rows(b, "prefill_hca_c128_kv_finalize", BF16, normed, writeDst, cmp2d, false, null);

        // index lists
        TensorVar swa = b.alloc("swa_indices");
        TensorVar cmpIdx = b.alloc("cmp_indices");
        TensorVar ori = v.get("ori_block_table");
        SwaIndices.windowIndices(b, "prefill_hca_window_indices", pos, ori.reshape(1, ori.shape()[0]), swa);
        cmpIndices(b, pos, cmpIdx);
        TensorVar cmpTable = v.get("cmp_block_table");
        return new SparseAttnKernels.Keys(cache2d, swa, cmp2d, cmpTable.reshape(1, cmpTable.shape()[0]), cmpIdx);
    }

    /** w = pos[write_pos_map[0]] as a 1×1 tile (row 0 when no token closes a window; its row is never written). */
    private static KTile windowEnd(KernelBuilder kb, KTensor wp, KTensor p) {
        KTile wr = kb.tile("wrow", INT32, 1, 1);
        KTile w = kb.tile("w", INT32, 1, 1);
        kb.load(wr, wp, 0, 0).binaryScalar(Fn.Binary.MAX, wr, wr, 0).loadRows(w, p, wr, 0, 0);
        return w;
    }

    /** cmp_indices[r, c] = c for c < min((pos+1)/128, IDX_TOPK, cmp capacity), −1 otherwise and on padding rows. */
    private static void cmpIndices(Dsv4Build b, TensorVar pos, TensorVar cmpIdx) {
        int t = b.t;
        int nt = b.preset.numTokens();
        int cols = (int) cmpIdx.shape()[1];
        long cap = Math.min(b.m.idxTopk(), (long) b.preset.pools().cmpMaxBlocks() * b.preset.pools().blockSize());
        KernelRef k = b.aiv("prefill_hca_sparse_indices", kb -> {
            KTensor p = kb.input("pos", INT32, 2);
            KTensor o = kb.output("cmp_indices", INT32, 2);
            KTile pt = kb.tile("p", INT32, 1, 1);
            KTile n = kb.tile("n", INT32, 1, 1);
            KTile c = kb.tile("c", INT32, 1, cols);
            KTile d = kb.tile("d", INT32, 1, cols);
            KTile neg = kb.tile("neg", INT32, 1, cols);
            KTile vm = kb.tile("vm", BOOL, 1, cols);
            KTile row = kb.tile("row", INT32, 1, cols);
            kb.iota(c, Fn.Axis.COLS, 0).fill(neg, -1);
            kb.forRange("r", 0, nt, rr -> kb.load(pt, p, rr, 0).adds(n, pt, 1)
                    .binaryScalar(Fn.Binary.DIV, n, n, RATIO).binaryScalar(Fn.Binary.MIN, n, n, cap)
                    .rowBroadcast(Fn.Binary.SUB, d, c, n).compareScalar(Fn.Compare.LT, vm, d, 0)
                    .select(row, vm, c, neg).store(row, o, rr, 0));
            if (nt < t) {
                kb.forRange("r", nt, t, rr -> kb.store(neg, o, rr, 0));
            }
        });
        b.submit(k, in(pos), outExisting(cmpIdx));
    }
}
