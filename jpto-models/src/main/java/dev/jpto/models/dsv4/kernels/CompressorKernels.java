package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.op.Fn;
import dev.jpto.models.dsv4.Dsv4Numerics;

/**
 * The stages every KV compressor has (spec §3.7): the projections with the positional bias, the list of
 * window-closing tokens, RMS·norm_w with RoPE at the window start; and the ratio-4 overlapping pool (CSA main and
 * indexer inner). HCA's ratio-128 pool stays in {@link HcaKernels}.
 */
final class CompressorKernels {
    private CompressorKernels() {
    }

    /**
     * {@code kvp = x·wkvᵀ}, {@code scp = x·wgateᵀ + ape[pos mod ratio]} (weights [out, D]); one task per
     * {@code nc} output columns, all rows in 16-row tiles.
     */
    static void project(Dsv4Build b, String name, int ratio, int nc, TensorVar xNormed, TensorVar wkv,
                        TensorVar wgate, TensorVar ape, TensorVar pos, TensorVar kvp, TensorVar scp) {
        int t = b.t;
        int d = b.m.d();
        int out = (int) wkv.shape()[0];
        int kc = Dsv4Build.tileOf(d, 256);
        KernelRef proj = b.aic(name, kb -> {
            KTensor x = kb.input("x_normed", BF16, 2);
            KTensor wk = kb.input("wkv", BF16, 2);
            KTensor wg = kb.input("wgate", BF16, 2);
            KTensor ap = kb.input("ape", FP32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor ok = kb.output("kv", FP32, 2);
            KTensor os = kb.output("score", FP32, 2);
            KScalar c0 = kb.scalar("c0");
            KTile ta = kb.tile("ta", BF16, 16, kc);
            KTile tw = kb.tile("tw", BF16, nc, kc);
            KTile ck = kb.tile("ck", FP32, 16, nc);
            KTile cs = kb.tile("cs", FP32, 16, nc);
            KTile at = kb.tile("ap", FP32, 16, nc);
            KTile pi = kb.tile("pi", INT32, 16, 1);
            KTile pm = kb.tile("pm", INT32, 16, 1);
            kb.forRange("m", 0, t, 16, mi -> {
                kb.fill(ck, 0).fill(cs, 0);
                kb.forRange("k", 0, d, kc, k -> kb.load(ta, x, mi, k).load(tw, wk, 0, k).matmulTransB(ck, ta, tw, true)
                        .load(tw, wg, 0, k).matmulTransB(cs, ta, tw, true));
                kb.load(pi, p, mi, 0).binaryScalar(Fn.Binary.DIV, pm, pi, ratio).muls(pm, pm, ratio).sub(pm, pi, pm)
                        .loadRows(at, ap, pm, 0, c0).add(cs, cs, at).store(ck, ok, mi, 0).store(cs, os, mi, 0);
            });
        });
        b.grid(out / nc, proj, j -> Dsv4Build.args(in(xNormed), in(wkv.at(j.times(nc), 0).size(nc, d)),
                in(wgate.at(j.times(nc), 0).size(nc, d)), in(ape), in(pos),
                outExisting(kvp.at(0, j.times(nc)).size(t, nc)), outExisting(scp.at(0, j.times(nc)).size(t, nc)),
                scalar(j.times(nc))));
    }

    /**
     * The window-closing tokens, compacted: entry e of {@code write_pos_map} is the token row of the (e+1)-th token
     * with a slot ≥ 0 in {@code slots} [1, T], entry e of {@code write_dst_map} its slot; −1 past the last. The
     * rank of each token is a prefix sum of the closing flags.
     */
    static void writeMap(Dsv4Build b, String name, TensorVar slots, TensorVar writePos, TensorVar writeDst) {
        int t = b.t;
        int w = (int) writePos.shape()[1];
        KernelRef k = b.aiv(name, kb -> {
            KTensor sm = kb.input("slot_mapping", slots.dtype(), 2);
            KTensor op = kb.output("write_pos_map", INT32, 2);
            KTensor od = kb.output("write_dst_map", INT32, 2);
            KTile s = kb.tile("s", INT32, 1, t);
            KTile v = kb.tile("v", INT32, 1, t);
            KTile one = kb.tile("one", INT32, 1, t);
            KTile zero = kb.tile("zero", INT32, 1, t);
            KTile rank = kb.tile("rank", INT32, 1, t);
            KTile vm = kb.tile("vm", BOOL, 1, t);
            KTile j = kb.tile("j", INT32, w, t);
            KTile rk = kb.tile("rk", INT32, w, t);
            KTile z = kb.tile("z", INT32, w, t);
            KTile tp = kb.tile("tp", INT32, w, t);
            KTile mk = kb.tile("mk", BOOL, w, t);
            KTile hit = kb.tile("hit", INT32, w, 1);
            KTile row = kb.tile("row", INT32, 1, w);
            kb.load(s, sm, 0, 0).fill(one, 1).fill(zero, 0).compareScalar(Fn.Compare.GE, vm, s, 0)
                    .select(v, vm, one, zero).cumSum(rank, v).select(rank, vm, rank, zero);
            // mk[e, t]: token t is the (e+1)-th closing one
            kb.iota(j, Fn.Axis.ROWS, 1).fill(z, 0).colBroadcast(Fn.Binary.ADD, rk, z, rank).sub(rk, rk, j)
                    .compareScalar(Fn.Compare.EQ, mk, rk, 0);
            kb.iota(tp, Fn.Axis.COLS, 1).select(rk, mk, tp, z).rowMax(hit, rk).adds(hit, hit, -1).transpose(row, hit)
                    .store(row, op, 0, 0);
            kb.adds(v, s, 1).colBroadcast(Fn.Binary.ADD, rk, z, v).select(rk, mk, rk, z).rowMax(hit, rk)
                    .adds(hit, hit, -1).transpose(row, hit).store(row, od, 0, 0);
        });
        b.submit(k, in(slots), outExisting(writePos), outExisting(writeDst));
    }

    /**
     * The first {@code count} compressed rows of {@code pooled}: {@code n = pooled·rsqrt(mean(pooled²)+eps)·norm_w},
     * forward RoPE of the last rope lanes at the window start {@code w + 1 − ratio} (w = the closing token's
     * position), stored to {@code normed} in its dtype (fp32, or bf16 for the indexer's keys); 16 rows per task.
     */
    static void normRope(Dsv4Build b, String name, int ratio, int count, TensorVar writePos, TensorVar pos,
                         TensorVar pooled, TensorVar normW, TensorVar fc, TensorVar fs, TensorVar normed) {
        int rows = Dsv4Build.tileOf(count, 16);
        int head = (int) pooled.shape()[1];
        int r = b.m.ropeDim();
        int nope = head - r;
        KernelRef k = b.aiv(name, kb -> {
            KTensor wp = kb.input("write_pos_map", INT32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor pl = kb.input("pooled", FP32, 2);
            KTensor nw = kb.input("norm_w", BF16, 2);
            KTensor tc = kb.input("freqs_cos", BF16, 2);
            KTensor ts = kb.input("freqs_sin", BF16, 2);
            KTensor o = kb.output("normed", normed.dtype(), 2);
            KTile cp = windowStarts(kb, wp, p, rows, ratio);
            Tiles.Interleave il = Tiles.Interleave.of(kb, rows, r);
            KTile half = kb.tile("half", FP32, rows, r / 2);
            KTile cosIl = kb.tile("cos_il", FP32, rows, r);
            KTile sinSg = kb.tile("sin_sg", FP32, rows, r);
            kb.loadRows(half, tc, cp, 0, 0);
            il.cos(kb, cosIl, half);
            kb.loadRows(half, ts, cp, 0, 0);
            il.sin(kb, sinSg, half);
            KTile fn = kb.tile("fn", FP32, rows, nope);
            KTile fr = kb.tile("fr", FP32, rows, r);
            KTile sqn = kb.tile("sqn", FP32, rows, nope);
            KTile sqr = kb.tile("sqr", FP32, rows, r);
            KTile inv = kb.tile("inv", FP32, rows, 1);
            KTile part = kb.tile("part", FP32, rows, 1);
            KTile gn = kb.tile("gn", FP32, 1, nope);
            KTile gr = kb.tile("gr", FP32, 1, r);
            Tiles.RopeScratch rs = Tiles.RopeScratch.of(kb, rows, r);
            kb.load(fn, pl, 0, 0).load(fr, pl, 0, nope).load(gn, nw, 0, 0).load(gr, nw, 0, nope).fill(inv, 0);
            Tiles.addSquares(kb, inv, fn, sqn, part);
            Tiles.addSquares(kb, inv, fr, sqr, part);
            Tiles.finishRsqrt(kb, inv, head, b.m.eps());
            kb.rowBroadcast(Fn.Binary.MUL, fn, fn, inv).colBroadcast(Fn.Binary.MUL, fn, fn, gn)
                    .rowBroadcast(Fn.Binary.MUL, fr, fr, inv).colBroadcast(Fn.Binary.MUL, fr, fr, gr);
            Tiles.rope(kb, fr, cosIl, sinSg, il.swapCol(), rs);
            kb.store(fn, o, 0, 0).store(fr, o, 0, nope);
        });
        b.grid(count / rows, k, i -> Dsv4Build.args(in(writePos.at(0, i.times(rows)).size(1, rows)), in(pos),
                in(pooled.at(i.times(rows), 0).size(rows, head)), in(normW.reshape(1, head)), in(fc), in(fs),
                outExisting(normed.at(i.times(rows), 0).size(rows, head))));
    }

    /** {@code [rows, 1]}: window starts {@code max(pos[tok] + 1 − ratio, 0)} of the closing tokens (tok −1: row 0). */
    private static KTile windowStarts(KernelBuilder kb, KTensor wp, KTensor p, int rows, int ratio) {
        KTile wr = kb.tile("ws_row", INT32, 1, rows);
        KTile wc = kb.tile("ws_col", INT32, rows, 1);
        KTile cp = kb.tile("ws_cp", INT32, rows, 1);
        kb.load(wr, wp, 0, 0).binaryScalar(Fn.Binary.MAX, wr, wr, 0).transpose(wc, wr).loadRows(cp, p, wc, 0, 0)
                .adds(cp, cp, 1 - ratio).binaryScalar(Fn.Binary.MAX, cp, cp, 0);
        return cp;
    }

    /**
     * Ratio-4 overlapping pool (spec §3.7.1), one task per (compressed row e, {@code cc} channels): 8 slots per
     * channel, the previous window {@code w−7..w−4} from the first half of the projection lanes and the current
     * window {@code w−3..w} from the second; a position comes from the chunk's fresh projections when it is in the
     * chunk, else from the old state row (when mapped), else it is empty (kv 0, score −3.4e38, weight exp → 0).
     * Softmax per channel over the slots. {@code stateTable} is the state block table as a column [blocks, 1].
     */
    static void pool4(Dsv4Build b, String name, int cc, int count, TensorVar writePos, TensorVar pos,
                      TensorVar stateTable, TensorVar state2d, TensorVar kvp, TensorVar scp, TensorVar pooled) {
        int head = (int) pooled.shape()[1];
        int out = 2 * head;
        int maxSeq = b.m.maxSeqLen();
        KernelRef k = b.aiv(name, kb -> {
            KTensor wp = kb.input("write_pos_map", INT32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor tb = kb.input("state_table", INT32, 2);
            KTensor st = kb.input("state", FP32, 2);
            KTensor kv = kb.input("kv_proj", FP32, 2);
            KTensor sc = kb.input("score_proj", FP32, 2);
            KTensor o = kb.output("pooled", FP32, 2);
            KScalar e = kb.scalar("e");
            KScalar c0 = kb.scalar("c0");
            KTile tok = kb.tile("tok", INT32, 1, 1);
            KTile w = kb.tile("w", INT32, 1, 1);
            KTile kk = kb.tile("kk", INT32, 1, 4);
            KTile a = kb.tile("a", INT32, 1, 4);
            KTile fr = kb.tile("fr", INT32, 1, 4);
            KTile ac = kb.tile("ac", INT32, 4, 1);
            KTile frc = kb.tile("frc", INT32, 4, 1);
            KTile fresh = kb.tile("fresh", INT32, 4, 1);
            KTile valid = kb.tile("valid", INT32, 4, 1);
            KTile blk = kb.tile("blk", INT32, 4, 1);
            KTile off = kb.tile("off", INT32, 4, 1);
            KTile g = kb.tile("g", INT32, 4, 1);
            KTile one1 = kb.tile("one1", INT32, 4, 1);
            KTile zero1 = kb.tile("zero1", INT32, 4, 1);
            KTile vm = kb.tile("vm", BOOL, 4, 1);
            KTile vf = kb.tile("vf", FP32, 4, 1);
            KTile mf = kb.tile("mf", BOOL, 4, cc);
            KTile ms = kb.tile("ms", BOOL, 4, cc);
            KTile fk = kb.tile("fk", FP32, 4, cc);
            KTile fs = kb.tile("fs", FP32, 4, cc);
            KTile zf = kb.tile("zf", FP32, 4, cc);
            KTile nf = kb.tile("nf", FP32, 4, cc);
            KTile[] kvs = {kb.tile("kv_prev", FP32, 4, cc), kb.tile("kv_cur", FP32, 4, cc)};
            KTile[] scs = {kb.tile("sc_prev", FP32, 4, cc), kb.tile("sc_cur", FP32, 4, cc)};
            KTile m = kb.tile("m", FP32, 1, cc);
            KTile mh = kb.tile("mh", FP32, 1, cc);
            KTile l = kb.tile("l", FP32, 1, cc);
            KTile lh = kb.tile("lh", FP32, 1, cc);
            KTile acc = kb.tile("acc", FP32, 1, cc);
            KTile ah = kb.tile("ah", FP32, 1, cc);
            kb.load(tok, wp, 0, e).binaryScalar(Fn.Binary.MAX, tok, tok, 0).loadRows(w, p, tok, 0, 0)
                    .iota(kk, Fn.Axis.COLS, 0).fill(one1, 1).fill(zero1, 0)
                    .fill(zf, 0).fill(nf, Dsv4Numerics.NEG_INF);
            for (int half = 0; half < 2; half++) {
                // positions w − 7 + 4·half + k; the chunk's row of a position is tok − (w − a)
                int back = 7 - 4 * half;
                kb.rowBroadcast(Fn.Binary.ADD, a, kk, w).adds(a, a, -back).rowBroadcast(Fn.Binary.ADD, fr, kk, tok)
                        .adds(fr, fr, -back).transpose(ac, a).transpose(frc, fr)
                        .compareScalar(Fn.Compare.GE, vm, frc, 0).select(fresh, vm, one1, zero1)
                        .binaryScalar(Fn.Binary.MAX, frc, frc, 0)
                        // state row table[a / 4]·4 + a mod 4, valid for 0 ≤ a < MAX_SEQ and a mapped block; the
                        // table entries are gathered from GM (the table passed as a column), not held in the UB
                        .compareScalar(Fn.Compare.GE, vm, ac, 0).select(valid, vm, one1, zero1)
                        .compareScalar(Fn.Compare.LT, vm, ac, maxSeq).select(valid, vm, valid, zero1)
                        .binaryScalar(Fn.Binary.MAX, ac, ac, 0).binaryScalar(Fn.Binary.MIN, ac, ac, maxSeq - 1)
                        .binaryScalar(Fn.Binary.DIV, blk, ac, 4).muls(off, blk, 4).sub(off, ac, off)
                        .loadRows(g, tb, blk, 0, 0).compareScalar(Fn.Compare.GE, vm, g, 0)
                        .select(valid, vm, valid, zero1)
                        .binaryScalar(Fn.Binary.MAX, g, g, 0).muls(g, g, 4).add(off, g, off);
                dev.jpto.compiler.dsl.KIndex lane = c0.plus(half * head);
                Tiles.columnMaskViaFloat(kb, ms, valid, vf, zf, fk);
                Tiles.columnMaskViaFloat(kb, mf, fresh, vf, zf, fk);
                kb.loadRows(fk, kv, frc, 0, lane).loadRows(fs, sc, frc, 0, lane)
                        .loadRows(kvs[half], st, off, 0, lane).loadRows(scs[half], st, off, 0, lane.plus(out))
                        .select(kvs[half], ms, kvs[half], zf).select(scs[half], ms, scs[half], nf)
                        .select(kvs[half], mf, fk, kvs[half]).select(scs[half], mf, fs, scs[half]);
            }
            kb.reduce(Fn.Reduce.MAX, Fn.Axis.COLS, m, scs[0]).reduce(Fn.Reduce.MAX, Fn.Axis.COLS, mh, scs[1])
                    .max(m, m, mh).fill(l, 0).fill(acc, 0);
            for (int half = 0; half < 2; half++) {
                kb.colBroadcast(Fn.Binary.SUB, scs[half], scs[half], m).exp(scs[half], scs[half])
                        .reduce(Fn.Reduce.SUM, Fn.Axis.COLS, lh, scs[half]).add(l, l, lh)
                        .mul(kvs[half], kvs[half], scs[half]).reduce(Fn.Reduce.SUM, Fn.Axis.COLS, ah, kvs[half])
                        .add(acc, acc, ah);
            }
            kb.div(acc, acc, l).store(acc, o, 0, 0);
        });
        b.grid(count, head / cc, k, (e, c) -> Dsv4Build.args(in(writePos), in(pos), in(stateTable),
                in(state2d), in(kvp), in(scp), outExisting(pooled.at(e, c.times(cc)).size(1, cc)), scalar(e),
                scalar(c.times(cc))));
    }
}
