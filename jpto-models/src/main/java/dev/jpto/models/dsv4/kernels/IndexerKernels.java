package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;
import static dev.jpto.isa.DType.INT8;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.op.Fn;
import dev.jpto.models.dsv4.Dsv4Numerics;
import dev.jpto.models.dsv4.Dsv4Preset;

/**
 * The CSA indexer's kernels (spec §3.7.1 inner keys, §3.8, §3.9; decomposition §3.2): half RoPE tables, the int8
 * query projection, RoPE and Hadamard + int8 of the queries, head weights, the inner keys' Hadamard and int8 cache
 * write, the ReLU-weighted scores, the top-k and the assembled index lists.
 */
final class IndexerKernels {
    private static final int SCORE_BLOCK = 32;

    private IndexerKernels() {
    }

    /** {@code prefill_csa_idx_halfrope}: idx_cos/sin = fp32 of the first rope/2 table columns; after {@code fence}. */
    static void halfRope(Dsv4Build b, TensorVar cosT, TensorVar sinT, TensorVar fence, TensorVar idxCos,
                         TensorVar idxSin) {
        int t = b.t;
        int half = b.m.ropeDim() / 2;
        KernelRef k = b.aiv("prefill_csa_idx_halfrope", kb -> {
            KTensor ct = kb.input("cos_t", BF16, 2);
            KTensor st = kb.input("sin_t", BF16, 2);
            kb.input("fence", fence.dtype(), 2);
            KTensor oc = kb.output("idx_cos", FP32, 2);
            KTensor os = kb.output("idx_sin", FP32, 2);
            KTile h = kb.tile("h", FP32, t, half);
            kb.load(h, ct, 0, 0).store(h, oc, 0, 0).load(h, st, 0, 0).store(h, os, 0, 0);
        });
        b.submit(k, in(cosT), in(sinT), in(fence), outExisting(idxCos), outExisting(idxSin));
    }

    /**
     * I1: {@code qr_proj = float(qr · idx_wq_b) · qr_scale[t] · idx_wq_b_scale[col]}, 512 columns per task in
     * 64-row tiles: each matmul re-packs its weight tile, so taller row tiles amortize that packing 4× over 16.
     */
    static void qrProj(Dsv4Build b, TensorVar qr, TensorVar w, TensorVar wScale, TensorVar qrScale, TensorVar out) {
        int t = b.t;
        int ql = b.m.qLora();
        int cols = (int) out.shape()[1];
        int nc = Dsv4Build.tileOf(cols, 512);
        int kc = Dsv4Build.tileOf(ql, 128);
        int mt = Dsv4Build.tileOf(t, 64);
        KernelRef k = b.aic("prefill_idx_qr_proj", kb -> {
            KTensor a = kb.input("qr", INT8, 2);
            KTensor wt = kb.input("idx_wq_b", INT8, 2);
            KTensor qs = kb.input("qr_scale", FP32, 2);
            KTensor ws = kb.input("idx_wq_b_scale", FP32, 2);
            KTensor o = kb.output("qr_proj", FP32, 2);
            KTile ta = kb.tile("ta", INT8, mt, kc);
            KTile tw = kb.tile("tw", INT8, kc, nc);
            KTile tc = kb.tile("tc", INT32, mt, nc);
            KTile tf = kb.tile("tf", FP32, mt, nc);
            KTile s = kb.tile("s", FP32, mt, 1);
            KTile wr = kb.tile("wr", FP32, 1, nc);
            kb.load(wr, ws, 0, 0);
            kb.forRange("m", 0, t, mt, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, ql, kc, kk -> kb.load(ta, a, mi, kk).load(tw, wt, kk, 0).matmulAcc(tc, ta, tw));
                kb.cast(tf, tc).load(s, qs, mi, 0).rowBroadcast(Fn.Binary.MUL, tf, tf, s)
                        .colBroadcast(Fn.Binary.MUL, tf, tf, wr).store(tf, o, mi, 0);
            });
        });
        TensorVar ws = wScale.reshape(1, cols);
        b.grid(cols / nc, k, j -> Dsv4Build.args(in(qr), in(w.at(0, j.times(nc)).size(ql, nc)), in(qrScale),
                in(ws.at(0, j.times(nc)).size(1, nc)), outExisting(out.at(0, j.times(nc)).size(t, nc))));
    }

    /** I2: forward RoPE of each head's rope lanes at the token's position, bf16; one token (all heads) per task. */
    static void qrRope(Dsv4Build b, TensorVar qrProj, TensorVar idxCos, TensorVar idxSin, TensorVar out) {
        int t = b.t;
        int nh = b.m.idxNHeads();
        int ihd = b.m.idxHeadDim();
        int r = b.m.ropeDim();
        int half = r / 2;
        KernelRef k = b.aiv("prefill_idx_qr_rope", kb -> {
            KTensor q = kb.input("qr_proj", FP32, 2);
            KTensor ci = kb.input("idx_cos", FP32, 2);
            KTensor si = kb.input("idx_sin", FP32, 2);
            KTensor o = kb.output("qr_rope_out", BF16, 2);
            Tiles.Interleave il = Tiles.Interleave.of(kb, 1, r);
            KTile h = kb.tile("h", FP32, 1, half);
            KTile c1 = kb.tile("c1", FP32, 1, r);
            KTile s1 = kb.tile("s1", FP32, 1, r);
            KTile z = kb.tile("z", FP32, nh, r);
            KTile cb = kb.tile("cb", FP32, nh, r);
            KTile sb = kb.tile("sb", FP32, nh, r);
            KTile x = kb.tile("x", FP32, nh, r);
            Tiles.RopeScratch rs = Tiles.RopeScratch.of(kb, nh, r);
            kb.load(h, ci, 0, 0);
            il.cos(kb, c1, h);
            kb.load(h, si, 0, 0);
            il.sin(kb, s1, h);
            kb.fill(z, 0).colBroadcast(Fn.Binary.ADD, cb, z, c1).colBroadcast(Fn.Binary.ADD, sb, z, s1)
                    .load(x, q, 0, ihd - r);
            Tiles.rope(kb, x, cb, sb, il.swapCol(), rs);
            kb.store(x, o, 0, 0);
        });
        TensorVar q2 = qrProj.reshape((long) t * nh, ihd);
        b.grid(t, k, tok -> Dsv4Build.args(in(q2.block(nh, ihd).at(tok, 0)),
                in(idxCos.block(1, half).at(tok, 0)), in(idxSin.block(1, half).at(tok, 0)),
                outExisting(out.block(nh, r).at(tok, 0))));
    }

    /**
     * I3: per (token, head) row, {@code qh = bf16([nope lanes | roped lanes]) · hadamard} (fp32), then int8 with
     * {@code 127/amax} and the dequant scale {@code amax/127}; 256 rows per task in 16-row tiles.
     */
    static void qrHadamardQuant(Dsv4Build b, TensorVar qrProj, TensorVar qrRope, TensorVar hadamard, TensorVar qq,
                                TensorVar qs) {
        int ihd = b.m.idxHeadDim();
        int r = b.m.ropeDim();
        int nope = ihd - r;
        long rowsAll = qq.shape()[0];
        int rows = Dsv4Build.tileOf((int) rowsAll, 256);
        KernelRef k = b.aic("prefill_idx_qr_hadamard_quant", kb -> {
            KTensor qp = kb.input("qr_proj", FP32, 2);
            KTensor qro = kb.input("qr_rope_out", BF16, 2);
            KTensor hm = kb.input("hadamard", BF16, 2);
            KTensor oq = kb.output("qr_hadamard_i8", INT8, 2);
            KTensor os = kb.output("qr_hadamard_scale_dq", FP32, 2);
            KTile fn = kb.tile("fn", FP32, 16, nope);
            KTile bn = kb.tile("bn", BF16, 16, nope);
            KTile br = kb.tile("br", BF16, 16, r);
            KTile ht = kb.tile("ht", BF16, nope, ihd);
            KTile hb = kb.tile("hb", BF16, r, ihd);
            KTile c = kb.tile("c", FP32, 16, ihd);
            KTile q8 = kb.tile("q8", INT8, 16, ihd);
            QuantTiles qt = QuantTiles.of(kb, 16, ihd);
            kb.load(ht, hm, 0, 0).load(hb, hm, nope, 0);
            kb.forRange("m", 0, rows, 16, mi -> {
                kb.load(fn, qp, mi, 0).cast(bn, fn).load(br, qro, mi, 0).matmul(c, bn, ht).matmulAcc(c, br, hb);
                qt.quantize(kb, c, q8);
                kb.store(q8, oq, mi, 0).store(qt.scale(), os, mi, 0);
            });
        });
        TensorVar q2 = qrProj.reshape(rowsAll, ihd);
        b.grid(rowsAll / rows, k, i -> Dsv4Build.args(in(q2.block(rows, ihd).at(i, 0)),
                in(qrRope.block(rows, r).at(i, 0)), in(hadamard), outExisting(qq.block(rows, ihd).at(i, 0)),
                outExisting(qs.block(rows, 1).at(i, 0))));
    }

    /** Symmetric int8 of rows: {@code sq = 127/max(amax, 1e-4)}, codes RNE, dequant scale {@code 1/sq}. */
    record QuantTiles(KTile y, KTile amax, KTile sq, KTile scale) {
        static QuantTiles of(KernelBuilder kb, int rows, int cols) {
            return new QuantTiles(kb.tile("qt_y", FP32, rows, cols), kb.tile("qt_amax", FP32, rows, 1),
                    kb.tile("qt_sq", FP32, rows, 1), kb.tile("qt_scale", FP32, rows, 1));
        }

        void quantize(KernelBuilder kb, KTile x, KTile q8) {
            kb.unary(Fn.Unary.ABS, y, x).rowMax(amax, y).binaryScalar(Fn.Binary.MAX, amax, amax, 1e-4)
                    .fill(sq, 127).div(sq, sq, amax).rowBroadcast(Fn.Binary.MUL, y, x, sq)
                    .cast(q8, y, RoundingMode.RINT).fill(scale, 1).div(scale, scale, sq);
        }
    }

    /** I4: {@code weights = (x_normed · idx_weights_proj) · WEIGHTS_SCALE}, 32 rows per task. */
    static void weightsProj(Dsv4Build b, TensorVar xNormed, TensorVar w, TensorVar out) {
        int t = b.t;
        int d = b.m.d();
        int nh = b.m.idxNHeads();
        int rows = Math.min(32, t);
        int kc = Dsv4Build.tileOf(d, 256);
        double ws = b.m.weightsScale();
        KernelRef k = b.aic("prefill_idx_weights_proj", kb -> {
            KTensor x = kb.input("x_normed", BF16, 2);
            KTensor wt = kb.input("idx_weights_proj", BF16, 2);
            KTensor o = kb.output("weights", FP32, 2);
            KTile ta = kb.tile("ta", BF16, 16, kc);
            KTile tw = kb.tile("tw", BF16, kc, nh);
            KTile tc = kb.tile("tc", FP32, 16, nh);
            kb.forRange("m", 0, rows, 16, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, d, kc, kk -> kb.load(ta, x, mi, kk).load(tw, wt, kk, 0).matmulAcc(tc, ta, tw));
                kb.muls(tc, tc, ws).store(tc, o, mi, 0);
            });
        });
        b.grid(t / rows, k, i -> Dsv4Build.args(in(xNormed.block(rows, d).at(i, 0)), in(w),
                outExisting(out.block(rows, nh).at(i, 0))));
    }

    /** I5 kv_hadamard: {@code final_kv = float(bf16(normed_kv · hadamard))}, 16 rows per task. */
    static void kvHadamard(Dsv4Build b, TensorVar normed, TensorVar hadamard, TensorVar out, int count) {
        int ihd = b.m.idxHeadDim();
        int rows = Dsv4Build.tileOf(count, 16);
        KernelRef k = b.aic("prefill_idx_c4_kv_hadamard", kb -> {
            KTensor n = kb.input("normed_kv", BF16, 2);
            KTensor hm = kb.input("hadamard", BF16, 2);
            KTensor o = kb.output("final_kv", FP32, 2);
            KTile a = kb.tile("a", BF16, rows, ihd);
            KTile h = kb.tile("h", BF16, ihd, ihd);
            KTile c = kb.tile("c", FP32, rows, ihd);
            KTile cb = kb.tile("cb", BF16, rows, ihd);
            kb.load(a, n, 0, 0).load(h, hm, 0, 0).matmul(c, a, h).cast(cb, c).cast(c, cb).store(c, o, 0, 0);
        });
        b.grid(count / rows, k, i -> Dsv4Build.args(in(normed.block(rows, ihd).at(i, 0)), in(hadamard),
                outExisting(out.block(rows, ihd).at(i, 0))));
    }

    /** I5 cache_write: int8 codes and scales of the final rows into idx_kv_cache / idx_kv_scale at their slots. */
    static void idxCacheWrite(Dsv4Build b, TensorVar finalKv, TensorVar writeDst, TensorVar idxKv2d,
                              TensorVar idxScale2d) {
        int ihd = b.m.idxHeadDim();
        int w = (int) finalKv.shape()[0];
        long rows = idxKv2d.shape()[0];
        KernelRef k = b.aiv("prefill_idx_c4_cache_write", kb -> {
            KTensor f = kb.input("final_kv", FP32, 2);
            KTensor sm = kb.input("write_dst_map", INT32, 2);
            KTensor oc = kb.inout("idx_kv_cache", INT8, 2);
            KTensor os = kb.inout("idx_kv_scale", FP32, 2);
            KTile x = kb.tile("x", FP32, w, ihd);
            KTile q8 = kb.tile("q8", INT8, w, ihd);
            QuantTiles qt = QuantTiles.of(kb, w, ihd);
            kb.load(x, f, 0, 0);
            qt.quantize(kb, x, q8);
            Scatter.body(kb, "k_", sm, w, oc, INT8, rows, ihd, true, (nw, idx) -> kb.gatherRows(nw, q8, idx));
            Scatter.body(kb, "s_", sm, w, os, FP32, rows, 1, true, (nw, idx) -> kb.gatherRows(nw, qt.scale(), idx));
        });
        b.submit(k, in(finalKv), in(writeDst), inout(idxKv2d), inout(idxScale2d));
    }

    /**
     * I7: for every 32-position block of the index cache up to the chunk's largest visible count, per token:
     * {@code score[t, c] = Σ_h relu(dot(qq[t,h], kv[c]) · qs[t,h] · kv_scale[c]) · weights[t,h]} for visible
     * mapped c, −3.4e38 otherwise. Reads and writes score_wide after its init fills.
     */
    static void score(Dsv4Build b, TensorVar qq, TensorVar qs, TensorVar weights, TensorVar idxKv2d,
                      TensorVar idxScale2d, TensorVar idxTable, TensorVar pos, TensorVar scoreWide) {
        int nh = b.m.idxNHeads();
        int ihd = b.m.idxHeadDim();
        int nt = b.preset.numTokens();
        int bs = b.preset.pools().blockSize();
        int cap = Dsv4Preset.INDEXER_SCORE_CAP;
        int blocks = scoredColumns(b) / SCORE_BLOCK;
        long tableLen = idxTable.shape()[1];
        KernelRef k = b.aic("prefill_idx_score", kb -> {
            KTensor q = kb.input("qr_hadamard_i8", INT8, 2);
            KTensor qsc = kb.input("qr_hadamard_scale_dq", FP32, 2);
            KTensor wt = kb.input("weights", FP32, 2);
            KTensor kv = kb.input("idx_kv_cache", INT8, 2);
            KTensor ks = kb.input("idx_kv_scale", FP32, 2);
            KTensor tb = kb.input("idx_block_table", INT32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor o = kb.inout("score_wide", FP32, 2);
            int sb = SCORE_BLOCK;
            KTile tbr = kb.tile("tbr", INT32, 1, (int) tableLen);
            KTile tbl = kb.tile("tbl", INT32, (int) tableLen, 1);
            KTile cr = kb.tile("cr", INT32, 1, sb);
            KTile cc = kb.tile("cc", INT32, sb, 1);
            KTile blk = kb.tile("blk", INT32, sb, 1);
            KTile off = kb.tile("off", INT32, sb, 1);
            KTile g = kb.tile("g", INT32, sb, 1);
            KTile vm1 = kb.tile("vm1", BOOL, sb, 1);
            KTile valid = kb.tile("valid", INT32, sb, 1);
            KTile zero1 = kb.tile("zero1", INT32, sb, 1);
            KTile vr = kb.tile("vr", INT32, 1, sb);
            KTile kvt = kb.tile("kvt", INT8, sb, ihd);
            KTile kst = kb.tile("kst", FP32, sb, 1);
            KTile ksr = kb.tile("ksr", FP32, 1, sb);
            KTile qt = kb.tile("qt", INT8, nh, ihd);
            KTile qsct = kb.tile("qsct", FP32, nh, 1);
            KTile wr = kb.tile("wr", FP32, 1, nh);
            KTile wc = kb.tile("wc", FP32, nh, 1);
            KTile dot = kb.tile("dot", INT32, nh, sb);
            KTile df = kb.tile("df", FP32, nh, sb);
            KTile sr = kb.tile("sr", FP32, 1, sb);
            KTile neg = kb.tile("neg", FP32, 1, sb);
            KTile pt = kb.tile("pt", INT32, 1, 1);
            KTile d = kb.tile("d", INT32, 1, sb);
            KTile mk = kb.tile("mk", BOOL, 1, sb);
            kb.load(tbr, tb, 0, 0).transpose(tbl, tbr).fill(neg, Dsv4Numerics.NEG_INF).fill(zero1, 0);
            kb.forRange("c0", 0, (long) blocks * sb, sb, c0 -> {
                // compressed positions c0..c0+31 → index-cache rows table[c/BS]·BS + c mod BS
                kb.iota(cr, Fn.Axis.COLS, 0).binaryScalar(Fn.Binary.ADD, cr, cr, c0).transpose(cc, cr)
                        .binaryScalar(Fn.Binary.DIV, blk, cc, bs).binaryScalar(Fn.Binary.MIN, blk, blk, tableLen - 1)
                        .muls(off, blk, bs).sub(off, cc, off).gatherRows(g, tbl, blk)
                        .compareScalar(Fn.Compare.GE, vm1, g, 0).fill(valid, 1).select(valid, vm1, valid, zero1)
                        .binaryScalar(Fn.Binary.MAX, g, g, 0).muls(g, g, bs).add(off, g, off).transpose(vr, valid)
                        .loadRows(kvt, kv, off, 0, 0).loadRows(kst, ks, off, 0, 0).transpose(ksr, kst);
                kb.forRange("tok", 0, nt, tok -> {
                    kb.load(qt, q, tok.times(nh), 0).load(qsct, qsc, tok.times(nh), 0).load(wr, wt, tok, 0)
                            .transpose(wc, wr).matmulTransB(dot, qt, kvt, false).cast(df, dot)
                            .rowBroadcast(Fn.Binary.MUL, df, df, qsct).colBroadcast(Fn.Binary.MUL, df, df, ksr)
                            .relu(df, df).rowBroadcast(Fn.Binary.MUL, df, df, wc)
                            .reduce(Fn.Reduce.SUM, Fn.Axis.COLS, sr, df);
                    // visible: c < min((pos+1)/4, 256) and a mapped block
                    kb.load(pt, p, tok, 0).adds(pt, pt, 1).binaryScalar(Fn.Binary.DIV, pt, pt, 4)
                            .binaryScalar(Fn.Binary.MIN, pt, pt, cap).rowBroadcast(Fn.Binary.SUB, d, cr, pt)
                            .compareScalar(Fn.Compare.LT, mk, d, 0).select(sr, mk, sr, neg)
                            .compareScalar(Fn.Compare.GT, mk, vr, 0).select(sr, mk, sr, neg).store(sr, o, tok, c0);
                });
            });
        });
        b.submit(k, in(qq), in(qs), in(weights), in(idxKv2d), in(idxScale2d), in(idxTable), in(pos),
                inout(scoreWide));
    }

    /** I8: the first INDEXER_SCORE_CAP score columns, the scores the top-k ranks. */
    static void scoreOut(Dsv4Build b, TensorVar scoreWide, TensorVar out) {
        int t = b.t;
        int cap = (int) out.shape()[1];
        KernelRef k = b.aiv("prefill_idx_score_out", kb -> {
            KTensor s = kb.input("score_wide", FP32, 2);
            KTensor o = kb.output("idx_score_unused", FP32, 2);
            KTile x = kb.tile("x", FP32, 16, cap);
            kb.forRange("m", 0, t, 16, mi -> kb.load(x, s, mi, 0).store(x, o, mi, 0));
        });
        b.submit(k, in(scoreWide), outExisting(out));
    }

    /**
     * I9: per 16 tokens, the top {@code min(IDX_TOPK, 256)} score columns in descending order (ties to the lower
     * column), columns {@code >= min(visible, k)} and padding rows −1. Only the columns a token of this chunk can
     * see ({@link #scoredColumns}) are ranked: the rest are −3.4e38 and never visible.
     */
    static void topk(Dsv4Build b, TensorVar scores, TensorVar pos, TensorVar out) {
        int t = b.t;
        int nt = b.preset.numTokens();
        int kAll = (int) out.shape()[1];
        int w = Math.min(kAll, scoredColumns(b));
        KernelRef k = b.aiv("prefill_idx_topk", kb -> {
            KTensor s = kb.input("scores", FP32, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor o = kb.output("cmp_topk_indices", INT32, 2);
            KScalar r0 = kb.scalar("r0");
            if (w > 0) {
                KTile x = kb.tile("x", FP32, 16, w);
                KTile vals = kb.tile("vals", FP32, 16, w);
                KTile idx = kb.tile("idx", INT32, 16, w);
                KTile pt = kb.tile("pt", INT32, 16, 1);
                KTile ri = kb.tile("ri", INT32, 16, 1);
                KTile z1 = kb.tile("z1", INT32, 16, 1);
                KTile m1 = kb.tile("m1", BOOL, 16, 1);
                KTile c = kb.tile("c", INT32, 16, w);
                KTile neg = kb.tile("neg", INT32, 16, w);
                KTile mk = kb.tile("mk", BOOL, 16, w);
                kb.load(x, s, 0, 0).topK(vals, idx, x, w);
                // limit = min((pos+1)/4, k) on active rows, 0 on padding rows
                kb.load(pt, p, 0, 0).adds(pt, pt, 1).binaryScalar(Fn.Binary.DIV, pt, pt, 4)
                        .binaryScalar(Fn.Binary.MIN, pt, pt, w).iota(ri, Fn.Axis.ROWS, 0)
                        .binaryScalar(Fn.Binary.ADD, ri, ri, r0).compareScalar(Fn.Compare.LT, m1, ri, nt).fill(z1, 0)
                        .select(pt, m1, pt, z1).iota(c, Fn.Axis.COLS, 0).rowBroadcast(Fn.Binary.SUB, c, c, pt)
                        .compareScalar(Fn.Compare.LT, mk, c, 0).fill(neg, -1).select(idx, mk, idx, neg)
                        .store(idx, o, 0, 0);
            }
            if (kAll > w) {
                KTile rest = kb.tile("rest", INT32, 16, kAll - w);
                kb.fill(rest, -1).store(rest, o, 0, w);
            }
        });
        int cap = (int) scores.shape()[1];
        b.grid(t / 16, k, i -> Dsv4Build.args(in(scores.block(16, cap).at(i, 0)), in(pos.block(16, 1).at(i, 0)),
                outExisting(out.block(16, kAll).at(i, 0)), scalar(i.times(16))));
    }

    /** Score columns the indexer fills: whole 32-blocks up to the chunk's largest visible count (at most 256). */
    static int scoredColumns(Dsv4Build b) {
        int maxVisible = Math.min(Dsv4Preset.INDEXER_SCORE_CAP, (b.preset.startPos() + b.preset.numTokens()) / 4);
        return Dsv4Build.ceilDiv(maxVisible, SCORE_BLOCK) * SCORE_BLOCK;
    }

    /**
     * {@code prefill_csa_sparse_idx_tile}, two tokens per task: the window indices (as SWA/HCA) and
     * {@code cmp_indices[t, c] = topk[t, c]} for {@code c < (pos+1)/4} and {@code 0 <= value < CMP_MAX_BLOCKS·BS},
     * −1 otherwise and on padding rows.
     */
    static void sparseIdxTile(Dsv4Build b, TensorVar pos, TensorVar oriTable, TensorVar topk, TensorVar swa,
                              TensorVar cmpIdx) {
        int t = b.t;
        int nt = b.preset.numTokens();
        int win = b.m.win();
        int bs = b.preset.pools().blockSize();
        long nb = oriTable.shape()[1];
        int kAll = (int) topk.shape()[1];
        long cap = (long) b.preset.pools().cmpMaxBlocks() * bs;
        KernelRef k = b.aiv("prefill_csa_sparse_idx_tile", kb -> {
            KTensor p = kb.input("pos", INT32, 2);
            KTensor tb = kb.input("ori_block_table", INT32, 2);
            KTensor tk = kb.input("cmp_topk_indices", INT32, 2);
            KTensor os = kb.output("swa_indices", INT32, 2);
            KTensor oc = kb.output("cmp_indices", INT32, 2);
            KScalar r0 = kb.scalar("r0");
            SwaIndices.WindowRow wr = SwaIndices.WindowRow.declare(kb, tb, win, bs, nb);
            KTile ri = kb.tile("ri", INT32, 1, 1);
            KTile vis = kb.tile("vis", INT32, 1, 1);
            KTile zw = kb.tile("zw", INT32, 1, win);
            KTile aw = kb.tile("aw", INT32, 1, win);
            KTile mw = kb.tile("mw", BOOL, 1, win);
            KTile tr = kb.tile("tr", INT32, 1, kAll);
            KTile c = kb.tile("c", INT32, 1, kAll);
            KTile d = kb.tile("d", INT32, 1, kAll);
            KTile zk = kb.tile("zk", INT32, 1, kAll);
            KTile negK = kb.tile("neg_k", INT32, 1, kAll);
            KTile mk = kb.tile("mk", BOOL, 1, kAll);
            kb.fill(zw, 0).fill(zk, 0).fill(negK, -1).iota(c, Fn.Axis.COLS, 0);
            for (int rr = 0; rr < 2; rr++) {
                KTile off = wr.compute(kb, p, rr);
                // padding rows (r0 + rr >= num_tokens) are all −1
                kb.iota(ri, Fn.Axis.COLS, 0).binaryScalar(Fn.Binary.ADD, ri, ri, r0).adds(ri, ri, rr)
                        .rowBroadcast(Fn.Binary.ADD, aw, zw, ri).compareScalar(Fn.Compare.LT, mw, aw, nt)
                        .select(off, mw, off, wr.neg()).store(off, os, rr, 0);
                kb.load(tr, tk, rr, 0).adds(vis, wr.pt(), 1).binaryScalar(Fn.Binary.DIV, vis, vis, 4)
                        .rowBroadcast(Fn.Binary.SUB, d, c, vis).compareScalar(Fn.Compare.LT, mk, d, 0)
                        .select(tr, mk, tr, negK).compareScalar(Fn.Compare.LT, mk, tr, cap).select(tr, mk, tr, negK)
                        .compareScalar(Fn.Compare.GE, mk, tr, 0).select(tr, mk, tr, negK)
                        .rowBroadcast(Fn.Binary.ADD, d, zk, ri).compareScalar(Fn.Compare.LT, mk, d, nt)
                        .select(tr, mk, tr, negK).store(tr, oc, rr, 0);
            }
        });
        b.grid(t / 2, k, i -> Dsv4Build.args(in(pos.block(2, 1).at(i, 0)), in(oriTable),
                in(topk.block(2, kAll).at(i, 0)), outExisting(swa.block(2, win).at(i, 0)),
                outExisting(cmpIdx.block(2, kAll).at(i, 0)), scalar(i.times(2))));
    }
}
