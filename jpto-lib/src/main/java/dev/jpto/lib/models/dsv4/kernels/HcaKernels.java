package dev.jpto.lib.models.dsv4.kernels;

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
        int nc = Dsv4Build.tileOf(hd, 32);
        int kc = Dsv4Build.tileOf(d, 256);
        KernelRef proj = b.aic("prefill_hca_c128_kv_score_proj", kb -> {
            KTensor x = kb.input("x_normed", BF16, 2);
            KTensor wk = kb.input("wkv", BF16, 2);
            KTensor wg = kb.input("wgate", BF16, 2);
            KTensor ape = kb.input("ape", FP32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor ok = kb.output("kv", FP32, 2);
            KTensor os = kb.output("score", FP32, 2);
            KScalar c0 = kb.scalar("c0");
            KTile ta = kb.tile("ta", BF16, 16, kc);
            KTile tw = kb.tile("tw", BF16, nc, kc);
            KTile ck = kb.tile("ck", FP32, 16, nc);
            KTile cs = kb.tile("cs", FP32, 16, nc);
            KTile ap = kb.tile("ap", FP32, 16, nc);
            KTile pi = kb.tile("pi", INT32, 16, 1);
            KTile pm = kb.tile("pm", INT32, 16, 1);
            kb.forRange("m", 0, t, 16, mi -> {
                kb.fill(ck, 0).fill(cs, 0);
                kb.forRange("k", 0, d, kc, k -> kb.load(ta, x, mi, k).load(tw, wk, 0, k).matmulTransB(ck, ta, tw, true)
                        .load(tw, wg, 0, k).matmulTransB(cs, ta, tw, true));
                kb.load(pi, p, mi, 0).binaryScalar(Fn.Binary.DIV, pm, pi, RATIO).muls(pm, pm, RATIO).sub(pm, pi, pm)
                        .loadRows(ap, ape, pm, 0, c0).add(cs, cs, ap).store(ck, ok, mi, 0).store(cs, os, mi, 0);
            });
        });
        b.o.forRange("j", hd / nc, j -> b.submit(proj, in(xNormed), in(v.get("cmp_wkv").at(j.times(nc), 0).size(nc, d)),
                in(v.get("cmp_wgate").at(j.times(nc), 0).size(nc, d)), in(v.get("cmp_ape")), in(pos),
                outExisting(kvp.at(0, j.times(nc)).size(t, nc)), outExisting(scp.at(0, j.times(nc)).size(t, nc)),
                scalar(j.times(nc))));

        // write map: the (at most one) token closing a 128-window, and its cmp slot
        TensorVar cmpSlots = v.get("cmp_slot_mapping").reshape(1, t);
        KernelRef wmap = b.aiv("prefill_hca_c128_write_map", kb -> {
            KTensor sm = kb.input("cmp_slot_mapping", INT64, 2);
            KTensor op = kb.output("write_pos_map", INT32, 2);
            KTensor od = kb.output("write_dst_map", INT32, 2);
            KTile s = kb.tile("s", INT32, 1, t);
            KTile io = kb.tile("io", INT32, 1, t);
            KTile neg = kb.tile("neg", INT32, 1, t);
            KTile mk = kb.tile("mk", BOOL, 1, t);
            KTile r = kb.tile("r", INT32, 1, 1);
            KTile pad = kb.tile("pad", INT32, 1, STATE_ROWS);
            kb.load(s, sm, 0, 0).iota(io, Fn.Axis.COLS, 0).fill(neg, -1).compareScalar(Fn.Compare.GE, mk, s, 0)
                    .select(io, mk, io, neg).rowMax(r, io).fill(pad, -1).store(pad, op, 0, 0).store(r, op, 0, 0)
                    .rowMax(r, s).store(pad, od, 0, 0).store(r, od, 0, 0);
        });
        b.submit(wmap, in(cmpSlots), outExisting(writePos), outExisting(writeDst));

        // state rows of the chunk first ([kv | score] at state_slot_mapping), so the pool reads only the state
        TensorVar state = v.get("compress_state");
        long[] ss = state.shape();
        TensorVar state2d = state.reshape(ss[0] * ss[1], ss[2]);
        TensorVar stateSlots = v.get("state_slot_mapping").reshape(1, t);
        scatter(b, "prefill_hca_c128_state_scatter_pre", FP32, kvp, stateSlots, state2d.at(0, 0).size(ss[0] * ss[1], hd),
                true);
        scatter(b, "prefill_hca_c128_state_scatter_pre", FP32, scp, stateSlots,
                state2d.at(0, hd).size(ss[0] * ss[1], hd), true);

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
            KTile tbr = kb.tile("tbr", INT32, 1, (int) tableLen);
            KTile tbl = kb.tile("tbl", INT32, (int) tableLen, 1);
            KTile kv = kb.tile("kv", FP32, RATIO, cc);
            KTile sc = kb.tile("sc", FP32, RATIO, cc);
            KTile zf = kb.tile("zf", FP32, RATIO, cc);
            KTile zi = kb.tile("zi", INT32, RATIO, cc);
            KTile wide = kb.tile("wide", INT32, RATIO, cc);
            KTile mh = kb.tile("mh", BOOL, RATIO, cc);
            KTile m = kb.tile("m", FP32, 1, cc);
            KTile l = kb.tile("l", FP32, 1, cc);
            KTile acc = kb.tile("acc", FP32, 1, cc);
            // positions a = w−127 .. w; state row = table[a/8]·8 + a mod 8, valid when 0 ≤ a < MAX_SEQ and mapped
            kb.iota(k, Fn.Axis.COLS, 1 - RATIO).rowBroadcast(Fn.Binary.ADD, a, k, w).transpose(ac, a)
                    .fill(zero1, 0).fill(valid, 1)
                    .compareScalar(Fn.Compare.GE, vm, ac, 0).select(valid, vm, valid, zero1)
                    .compareScalar(Fn.Compare.LT, vm, ac, maxSeq).select(valid, vm, valid, zero1)
                    .binaryScalar(Fn.Binary.MAX, ac, ac, 0).binaryScalar(Fn.Binary.MIN, ac, ac, maxSeq - 1)
                    .binaryScalar(Fn.Binary.DIV, blk, ac, STATE_ROWS).muls(off, blk, STATE_ROWS).sub(off, ac, off)
                    .load(tbr, tb, 0, 0).transpose(tbl, tbr).gatherRows(g, tbl, blk)
                    .compareScalar(Fn.Compare.GE, vm, g, 0).select(valid, vm, valid, zero1)
                    .binaryScalar(Fn.Binary.MAX, g, g, 0).muls(g, g, STATE_ROWS).add(off, g, off)
                    .loadRows(kv, st, off, 0, c0).loadRows(sc, st, off, 0, c0.plus(hd)).fill(zf, 0);
            Tiles.columnMask(kb, mh, valid, zi, wide);
            kb.select(kv, mh, kv, zf).select(sc, mh, sc, zf)
                    .reduce(Fn.Reduce.MAX, Fn.Axis.COLS, m, sc).colBroadcast(Fn.Binary.SUB, sc, sc, m).exp(sc, sc)
                    .reduce(Fn.Reduce.SUM, Fn.Axis.COLS, l, sc).mul(kv, kv, sc)
                    .reduce(Fn.Reduce.SUM, Fn.Axis.COLS, acc, kv).div(acc, acc, l).store(acc, o, 0, 0);
        });
        TensorVar table2 = table.reshape(1, tableLen);
        b.o.forRange("c", hd / cc, c -> b.submit(pool, in(writePos), in(pos), in(table2), in(state2d),
                outExisting(pooled.at(0, c.times(cc)).size(1, cc)), scalar(c.times(cc))));

        // RMS · norm_w, forward RoPE at the window start w + 1 − 128
        int r = b.m.ropeDim();
        int nope = b.m.nopeDim();
        KernelRef norm = b.aiv("prefill_hca_c128_rmsnorm_rope", kb -> {
            KTensor wp = kb.input("write_pos_map", INT32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor pl = kb.input("pooled", FP32, 2);
            KTensor nw = kb.input("norm_w", BF16, 2);
            KTensor fc = kb.input("freqs_cos", BF16, 2);
            KTensor fs = kb.input("freqs_sin", BF16, 2);
            KTensor o = kb.output("normed", FP32, 2);
            KTile w = windowEnd(kb, wp, p);
            KTile fn = kb.tile("fn", FP32, 1, nope);
            KTile fr = kb.tile("fr", FP32, 1, r);
            KTile sqn = kb.tile("sqn", FP32, 1, nope);
            KTile sqr = kb.tile("sqr", FP32, 1, r);
            KTile inv = kb.tile("inv", FP32, 1, 1);
            KTile part = kb.tile("part", FP32, 1, 1);
            KTile gn = kb.tile("gn", FP32, 1, nope);
            KTile gr = kb.tile("gr", FP32, 1, r);
            KTile cp = kb.tile("cp", INT32, 1, 1);
            KTile cosIl = kb.tile("cos_il", FP32, 1, r);
            KTile sinSg = kb.tile("sin_sg", FP32, 1, r);
            KTile swapCol = kb.tile("swap_c", INT32, r, 1);
            kb.adds(cp, w, 1 - RATIO).binaryScalar(Fn.Binary.MAX, cp, cp, 0);
            ropeRow(kb, fc, fs, cp, cosIl, sinSg, swapCol, r);
            Tiles.RopeScratch rs = Tiles.RopeScratch.of(kb, 1, r);
            kb.load(fn, pl, 0, 0).load(fr, pl, 0, nope).load(gn, nw, 0, 0).load(gr, nw, 0, nope).fill(inv, 0);
            Tiles.addSquares(kb, inv, fn, sqn, part);
            Tiles.addSquares(kb, inv, fr, sqr, part);
            Tiles.finishRsqrt(kb, inv, hd, b.m.eps());
            kb.rowBroadcast(Fn.Binary.MUL, fn, fn, inv).mul(fn, fn, gn).rowBroadcast(Fn.Binary.MUL, fr, fr, inv)
                    .mul(fr, fr, gr);
            Tiles.rope(kb, fr, cosIl, sinSg, swapCol, rs);
            kb.store(fn, o, 0, 0).store(fr, o, 0, nope);
        });
        b.submit(norm, in(writePos), in(pos), in(pooled), in(v.get("cmp_norm_w").reshape(1, hd)),
                in(v.get("freqs_cos")), in(v.get("freqs_sin")), outExisting(normed.at(0, 0).size(1, hd)));

        // bf16 row into cmp_kv at the closing token's cmp slot
        TensorVar cmp = v.get("cmp_kv");
        long[] cs = cmp.shape();
        TensorVar cmp2d = cmp.reshape(cs[0] * cs[1], hd);
        scatter(b, "prefill_hca_c128_kv_finalize", BF16, normed, writeDst, cmp2d, false);

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

    /** Interleaved cos, forward-signed sin and the pair-swap column for the table row at {@code cp} (1×1). */
    private static void ropeRow(KernelBuilder kb, KTensor fc, KTensor fs, KTile cp, KTile cosIl, KTile sinSg,
                                KTile swapCol, int r) {
        int half = r / 2;
        KTile h = kb.tile("rhalf", FP32, 1, half);
        KTile ht = kb.tile("rhalf_t", FP32, half, 1);
        KTile g = kb.tile("rg", FP32, r, 1);
        KTile e = kb.tile("re", INT32, r, 1);
        KTile ci = kb.tile("rci", INT32, 1, r);
        KTile cm = kb.tile("rcm", INT32, 1, r);
        KTile sg = kb.tile("rsg", INT32, 1, r);
        KTile sign = kb.tile("rsign", FP32, 1, r);
        KTile sw = kb.tile("rsw", INT32, 1, r);
        kb.iota(e, Fn.Axis.ROWS, 0).binaryScalar(Fn.Binary.DIV, e, e, 2);
        kb.iota(ci, Fn.Axis.COLS, 0).binaryScalar(Fn.Binary.DIV, cm, ci, 2).muls(cm, cm, 2).sub(cm, ci, cm);
        kb.muls(sg, cm, 2).adds(sg, sg, -1).cast(sign, sg);
        kb.muls(sw, cm, -2).adds(sw, sw, 1).add(sw, sw, ci).transpose(swapCol, sw);
        // the first half of the table row at cp, interleaved
        kb.loadRows(h, fc, cp, 0, 0);
        kb.transpose(ht, h).gatherRows(g, ht, e).transpose(cosIl, g);
        kb.loadRows(h, fs, cp, 0, 0).transpose(ht, h).gatherRows(g, ht, e).transpose(sinSg, g)
                .mul(sinSg, sinSg, sign);
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

    /**
     * Writes row {@code src[t]} (or {@code src[0]} when {@code fromToken} is false) into {@code dst[slot[t]]} for
     * every entry t of {@code slots} [1, n] with a slot ≥ 0, 128 destination rows at a time, bit-exact select over the old rows.
     */
    static void scatter(Dsv4Build b, String name, DType dtype, TensorVar src, TensorVar slots, TensorVar dst,
                        boolean fromToken) {
        int t = (int) slots.shape()[1];
        int w = (int) dst.shape()[1];
        long rows = dst.shape()[0];
        long srcRows = src.shape()[0];
        KernelRef k = b.aiv(name + (fromToken ? "" : "_row0"), kb -> {
            KTensor s = kb.input("src", src.dtype(), 2);
            KTensor sm = kb.input("slot_mapping", slots.dtype(), 2);
            KTensor o = kb.inout("dst", dtype, 2);
            KTile slot = kb.tile("slot", INT32, 1, t);
            KTile jm = kb.tile("jm", INT32, 128, t);
            KTile tp = kb.tile("tp", INT32, 128, t);
            KTile z = kb.tile("z", INT32, 128, t);
            KTile mask = kb.tile("mask", BOOL, 128, t);
            KTile hit = kb.tile("hit", INT32, 128, 1);
            KTile idx = kb.tile("idx", INT32, 128, 1);
            KTile zh = kb.tile("zh", INT32, 128, w);
            KTile wide = kb.tile("wide", INT32, 128, w);
            KTile mh = kb.tile("mh", BOOL, 128, w);
            KTile nw = kb.tile("nw", dtype, 128, w);
            KTile old = kb.tile("old", dtype, 128, w);
            kb.load(slot, sm, 0, 0).iota(tp, Fn.Axis.COLS, 1).fill(z, 0);
            kb.forRange("r0", 0, rows, 128, r0 -> {
                kb.iota(jm, Fn.Axis.ROWS, 0).binaryScalar(Fn.Binary.ADD, jm, jm, r0)
                        .colBroadcast(Fn.Binary.SUB, jm, jm, slot).compareScalar(Fn.Compare.EQ, mask, jm, 0)
                        .select(jm, mask, tp, z).rowMax(hit, jm);
                if (fromToken) {
                    kb.adds(idx, hit, -1).binaryScalar(Fn.Binary.MAX, idx, idx, 0);
                } else {
                    kb.fill(idx, 0);
                }
                kb.loadRows(nw, s, idx, 0, 0).load(old, o, r0, 0);
                Tiles.columnMask(kb, mh, hit, zh, wide);
                kb.select(old, mh, nw, old).store(old, o, r0, 0);
            });
        });
        if (!fromToken && srcRows < 1) {
            throw new IllegalArgumentException(name + ": empty source");
        }
        b.submit(k, in(src), in(slots), inout(dst));
    }
}
