package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;
import static dev.jpto.isa.DType.INT64;
import static dev.jpto.isa.DType.INT8;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.op.Fn;

/** RoPE rows and qkv_proj_rope (decomposition §2.3 steps 11–21): q, kv, qr, qr_scale and the kv cache write. */
final class QkvKernels {
    /** Label of the original's {@code late_dep} barrier, which kv_proj_matmul waits for. */
    static final String LATE_DEP = "late_dep";

    private QkvKernels() {
    }

    record Out(TensorVar q, TensorVar kv, TensorVar qr, TensorVar qrScale, TensorVar cosIl, TensorVar sinSigned,
               TensorVar swapIdx, TensorVar ropeCos, TensorVar ropeSin) {
    }

    /** Steps 11–20. {@code pos} is position_ids as [T, 1]. */
    static Out run(Dsv4Build b, TensorVar xNormed, TensorVar pos, TensorVar freqsCos, TensorVar freqsSin,
                   TensorVar wqA, TensorVar wqB, TensorVar wqBScale, TensorVar wkv, TensorVar gammaCq,
                   TensorVar gammaCkv) {
        int t = b.t;
        int d = b.m.d();
        int r = b.m.ropeDim();
        int hd = b.m.headDim();
        int nope = b.m.nopeDim();
        int ql = b.m.qLora();
        int h = b.m.h();

        // 11: gather the RoPE rows of the chunk's positions
        TensorVar cosT = b.alloc("rope_cos_t");
        TensorVar sinT = b.alloc("rope_sin_t");
        KernelRef rows = b.aiv("qkv_rope_rows", kb -> {
            KTensor fc = kb.input("freqs_cos", BF16, 2);
            KTensor fs = kb.input("freqs_sin", BF16, 2);
            KTensor p = kb.input("pos", INT32, 2);
            KTensor oc = kb.output("cos", BF16, 2);
            KTensor os = kb.output("sin", BF16, 2);
            KTile idx = kb.tile("idx", INT32, 8, 1);
            KTile v = kb.tile("v", BF16, 8, r);
            kb.load(idx, p, 0, 0).loadRows(v, fc, idx, 0, 0).store(v, oc, 0, 0).loadRows(v, fs, idx, 0, 0)
                    .store(v, os, 0, 0);
        });
        b.grid(t / 8, rows, i -> Dsv4Build.args(in(freqsCos), in(freqsSin), in(pos.block(8, 1).at(i, 0)),
                outExisting(cosT.block(8, r).at(i, 0)), outExisting(sinT.block(8, r).at(i, 0))));

        TensorVar q = b.alloc("q");
        TensorVar kv = b.alloc("kv");
        TensorVar qr = b.alloc("qr");
        TensorVar qrScale = b.alloc("qr_scale");
        TensorVar cosIl = b.alloc("q_rope_cos_il");
        TensorVar sinSg = b.alloc("q_rope_sin_signed");
        TensorVar swap = b.alloc("q_rope_swap_idx");
        // 12: interleaved cos, signed sin (forward), pair-swap index
        KernelRef prep = ropePrepare(b, "q_rope_prepare", false);
        b.grid(t / 8, prep, i -> Dsv4Build.args(in(cosT.block(8, r).at(i, 0)), in(sinT.block(8, r).at(i, 0)),
                outExisting(cosIl.block(8, r).at(i, 0)), outExisting(sinSg.block(8, r).at(i, 0)),
                outExisting(swap.block(8, r).at(i, 0))));

        // 13-15: qr = rms_quant(x_normed · wq_a)
        TensorVar qr32 = b.alloc("qr_fp32");
        TensorVar qrParts = b.alloc("qr_partials");
        TensorVar qrI8 = b.alloc("qr_i8_matmul");
        int nc = Dsv4Build.tileOf(ql, 128);
        int kh = d / 2;
        KernelRef qrMm = Tiles.splitK(b, "qr_proj_matmul", BF16, t, kh, nc, 256);
        b.grid(ql / nc, 2, qrMm, (n, s) -> Dsv4Build.args(in(xNormed.at(0, s.times(kh)).size(t, kh)),
                in(wqA.at(s.times(kh), n.times(nc)).size(kh, nc)),
                outExisting(qrParts.at(s.times(t), n.times(nc)).size(t, nc))));
        KernelRef qrRed = Tiles.reduceParts(b, "qr_proj_reduce", 2, t, nc);
        b.grid(t / 16, ql / nc, qrRed, (i, n) -> Dsv4Build.args(in(qrParts),
                outExisting(qr32.at(i.times(16), n.times(nc)).size(16, nc)), scalar(i.times(16)), scalar(n.times(nc))));
        KernelRef quant = b.aiv("qr_rms_norm_quant", kb -> {
            KTensor x = kb.input("qr_fp32", FP32, 2);
            KTensor g = kb.input("gamma_cq", BF16, 2);
            KTensor oq = kb.output("qr", INT8, 2);
            KTensor os = kb.output("qr_scale", FP32, 2);
            KTensor om = kb.output("qr_i8_matmul", INT8, 2);
            KTile xs = kb.tile("x", FP32, 8, ql);
            KTile y = kb.tile("y", FP32, 8, ql);
            KTile gr = kb.tile("g", FP32, 1, ql);
            KTile inv = kb.tile("inv", FP32, 8, 1);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile amax = kb.tile("amax", FP32, 8, 1);
            KTile sq = kb.tile("sq", FP32, 8, 1);
            KTile num = kb.tile("num", FP32, 8, 1);
            KTile q8 = kb.tile("q8", INT8, 8, ql);
            kb.load(xs, x, 0, 0).load(gr, g, 0, 0).fill(inv, 0);
            Tiles.addSquares(kb, inv, xs, y, part);
            Tiles.finishRsqrt(kb, inv, ql, b.m.eps());
            kb.colBroadcast(Fn.Binary.MUL, y, xs, gr).unary(Fn.Unary.ABS, y, y).rowMax(amax, y)
                    .mul(amax, amax, inv).binaryScalar(Fn.Binary.MAX, amax, amax, 1e-4)
                    .fill(num, 127).div(sq, num, amax);
            kb.rowBroadcast(Fn.Binary.MUL, y, xs, inv).colBroadcast(Fn.Binary.MUL, y, y, gr)
                    .rowBroadcast(Fn.Binary.MUL, y, y, sq).cast(q8, y, RoundingMode.RINT).store(q8, oq, 0, 0)
                    .store(q8, om, 0, 0).fill(num, 1).div(num, num, sq).store(num, os, 0, 0);
        });
        b.grid(t / 8, quant, i -> Dsv4Build.args(in(qr32.block(8, ql).at(i, 0)), in(gammaCq.reshape(1, ql)),
                outExisting(qr.block(8, ql).at(i, 0)), outExisting(qrScale.block(8, 1).at(i, 0)),
                outExisting(qrI8.block(8, ql).at(i, 0))));

        // 16: q_proj_i32 = qr · wq_b (int8 → int32), up to 16 × 256 columns per task: an int8 [128, 256] weight
        // chunk takes half of L0B (exact int32 sums, so the split does not change the result)
        TensorVar qProj = b.alloc("q_proj_i32");
        int qCols = h * hd;
        int nb = Dsv4Build.tileOf(qCols, 4096);
        int nsub = Dsv4Build.tileOf(nb, 256);
        int kc = Dsv4Build.tileOf(ql, 128);
        KernelRef qMm = b.aic("qproj_matmul", kb -> {
            KTensor a = kb.input("qr", INT8, 2);
            KTensor w = kb.input("wq_b", INT8, 2);
            KTensor o = kb.output("q_proj", INT32, 2);
            KTile ta = kb.tile("ta", INT8, 16, kc);
            KTile tw = kb.tile("tw", INT8, kc, nsub);
            KTile tc = kb.tile("tc", INT32, 16, nsub);
            kb.forRange("n", 0, nb, nsub, n -> kb.forRange("m", 0, t, 16, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, ql, kc, k -> kb.load(ta, a, mi, k).load(tw, w, k, n).matmulAcc(tc, ta, tw));
                kb.store(tc, o, mi, n);
            }));
        });
        b.grid(qCols / nb, qMm, j -> Dsv4Build.args(in(qrI8), in(wqB.at(0, j.times(nb)).size(ql, nb)),
                outExisting(qProj.at(0, j.times(nb)).size(t, nb))));

        // 17: dequant, per-head RMS, RoPE on the rope lanes, bf16; 4 heads × all rows per task
        int hpt = Math.min(4, h);
        KernelRef deq = b.aiv("qproj_dequant_rms_nope_rope", kb -> {
            KTensor qp = kb.input("q_proj", INT32, 2);
            KTensor qs = kb.input("qr_scale", FP32, 2);
            KTensor ws = kb.input("wq_b_scale", FP32, 2);
            KTensor ci = kb.input("cos_il", FP32, 2);
            KTensor si = kb.input("sin_signed", FP32, 2);
            KTensor sw = kb.input("swap_idx", INT32, 2);
            KTensor o = kb.output("q", BF16, 2);
            KTile swapCol = Tiles.swapColumn(kb, sw, r);
            KTile in = kb.tile("in", INT32, 8, nope);
            KTile ir = kb.tile("ir", INT32, 8, r);
            KTile fn = kb.tile("fn", FP32, 8, nope);
            KTile fr = kb.tile("fr", FP32, 8, r);
            KTile sqn = kb.tile("sqn", FP32, 8, nope);
            KTile sqr = kb.tile("sqr", FP32, 8, r);
            KTile sc = kb.tile("sc", FP32, 8, 1);
            KTile inv = kb.tile("inv", FP32, 8, 1);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile wn = kb.tile("wn", FP32, 1, nope);
            KTile wr = kb.tile("wr", FP32, 1, r);
            KTile c = kb.tile("c", FP32, 8, r);
            KTile s = kb.tile("s", FP32, 8, r);
            Tiles.RopeScratch rs = Tiles.RopeScratch.of(kb, 8, r);
            kb.forRange("hh", 0, hpt, hh -> {
                var col = hh.times(hd);
                kb.load(wn, ws, 0, col).load(wr, ws, 0, col.plus(nope));
                kb.forRange("m", 0, t, 8, mi -> {
                    kb.load(in, qp, mi, col).load(ir, qp, mi, col.plus(nope)).cast(fn, in).cast(fr, ir)
                            .load(sc, qs, mi, 0).rowBroadcast(Fn.Binary.MUL, fn, fn, sc)
                            .rowBroadcast(Fn.Binary.MUL, fr, fr, sc).colBroadcast(Fn.Binary.MUL, fn, fn, wn)
                            .colBroadcast(Fn.Binary.MUL, fr, fr, wr).fill(inv, 0);
                    Tiles.addSquares(kb, inv, fn, sqn, part);
                    Tiles.addSquares(kb, inv, fr, sqr, part);
                    Tiles.finishRsqrt(kb, inv, hd, b.m.eps());
                    kb.rowBroadcast(Fn.Binary.MUL, fn, fn, inv).rowBroadcast(Fn.Binary.MUL, fr, fr, inv)
                            .load(c, ci, mi, 0).load(s, si, mi, 0);
                    Tiles.rope(kb, fr, c, s, swapCol, rs);
                    kb.store(fn, o, mi, col).store(fr, o, mi, col.plus(nope));
                });
            });
        });
        TensorVar q2 = q.reshape(t, (long) h * hd);
        b.grid(h / hpt, deq, j -> Dsv4Build.args(in(qProj.at(0, j.times(hpt * hd)).size(t, hpt * hd)),
                in(qrScale), in(wqBScale.reshape(1, qCols).at(0, j.times(hpt * hd)).size(1, hpt * hd)), in(cosIl),
                in(sinSg), in(swap.at(0, 0).size(1, r)), outExisting(q2.at(0, j.times(hpt * hd)).size(t, hpt * hd))));

        // 18-20: kv = rope(rms(x_normed · wkv) · gamma_ckv), bf16
        TensorVar kv32 = b.alloc("kv_fp32");
        TensorVar kvParts = b.alloc("kv_partials");
        int kq = d / 4;
        int nck = Dsv4Build.tileOf(hd, 128);
        KernelRef kvMm = Tiles.splitK(b, "kv_proj_matmul", BF16, t, kq, nck, 128);
        b.grid(SubmitOptions.after(LATE_DEP), hd / nck, 4, kvMm, (n, s) -> Dsv4Build.args(
                in(xNormed.at(0, s.times(kq)).size(t, kq)),
                in(wkv.at(s.times(kq), n.times(nck)).size(kq, nck)),
                outExisting(kvParts.at(s.times(t), n.times(nck)).size(t, nck))));
        KernelRef kvRed = Tiles.reduceParts(b, "kv_proj_reduce", 4, t, nck);
        b.grid(t / 16, hd / nck, kvRed, (i, n) -> Dsv4Build.args(in(kvParts),
                outExisting(kv32.at(i.times(16), n.times(nck)).size(16, nck)), scalar(i.times(16)),
                scalar(n.times(nck))));
        KernelRef kvNorm = b.aiv("kv_rms_norm_rope", kb -> {
            KTensor x = kb.input("kv_fp32", FP32, 2);
            KTensor g = kb.input("gamma_ckv", BF16, 2);
            KTensor ci = kb.input("cos_il", FP32, 2);
            KTensor si = kb.input("sin_signed", FP32, 2);
            KTensor sw = kb.input("swap_idx", INT32, 2);
            KTensor o = kb.output("kv", BF16, 2);
            KTile swapCol = Tiles.swapColumn(kb, sw, r);
            KTile fn = kb.tile("fn", FP32, 8, nope);
            KTile fr = kb.tile("fr", FP32, 8, r);
            KTile sqn = kb.tile("sqn", FP32, 8, nope);
            KTile sqr = kb.tile("sqr", FP32, 8, r);
            KTile inv = kb.tile("inv", FP32, 8, 1);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile gn = kb.tile("gn", FP32, 1, nope);
            KTile gr = kb.tile("gr", FP32, 1, r);
            KTile c = kb.tile("c", FP32, 8, r);
            KTile s = kb.tile("s", FP32, 8, r);
            Tiles.RopeScratch rs = Tiles.RopeScratch.of(kb, 8, r);
            kb.load(fn, x, 0, 0).load(fr, x, 0, nope).load(gn, g, 0, 0).load(gr, g, 0, nope).fill(inv, 0);
            Tiles.addSquares(kb, inv, fn, sqn, part);
            Tiles.addSquares(kb, inv, fr, sqr, part);
            Tiles.finishRsqrt(kb, inv, hd, b.m.eps());
            kb.rowBroadcast(Fn.Binary.MUL, fn, fn, inv).colBroadcast(Fn.Binary.MUL, fn, fn, gn)
                    .rowBroadcast(Fn.Binary.MUL, fr, fr, inv).colBroadcast(Fn.Binary.MUL, fr, fr, gr)
                    .load(c, ci, 0, 0).load(s, si, 0, 0);
            Tiles.rope(kb, fr, c, s, swapCol, rs);
            kb.store(fn, o, 0, 0).store(fr, o, 0, nope);
        });
        b.grid(t / 8, kvNorm, i -> Dsv4Build.args(in(kv32.block(8, hd).at(i, 0)), in(gammaCkv.reshape(1, hd)),
                in(cosIl.block(8, r).at(i, 0)), in(sinSg.block(8, r).at(i, 0)), in(swap.at(0, 0).size(1, r)),
                outExisting(kv.block(8, hd).at(i, 0))));
        return new Out(q, kv, qr, qrScale, cosIl, sinSg, swap, cosT, sinT);
    }

    /**
     * Interleaved cos {@code c[2i] = c[2i+1] = cos[i]} and signed sin ({@code -s, +s} forward, {@code +s, -s}
     * inverse) over the first rope/2 columns of the gathered tables, plus the pair-swap index {@code c ^ 1}.
     */
    static KernelRef ropePrepare(Dsv4Build b, String name, boolean inverse) {
        int r = b.m.ropeDim();
        int half = r / 2;
        return b.aiv(name, kb -> {
            KTensor ct = kb.input("cos_t", BF16, 2);
            KTensor st = kb.input("sin_t", BF16, 2);
            KTensor oc = kb.output("cos_il", FP32, 2);
            KTensor os = kb.output("sin_signed", FP32, 2);
            KTensor ow = inverse ? null : kb.output("swap_idx", INT32, 2);
            KTile v = kb.tile("v", FP32, 8, half);
            KTile vt = kb.tile("vt", FP32, half, 8);
            KTile g = kb.tile("g", FP32, r, 8);
            KTile il = kb.tile("il", FP32, 8, r);
            KTile e = kb.tile("e", INT32, r, 1);
            KTile ci = kb.tile("ci", INT32, 1, r);
            KTile cm = kb.tile("cm", INT32, 1, r);
            KTile sign = kb.tile("sign", FP32, 1, r);
            // e = lane / 2 (the source frequency of each lane); cm = lane mod 2
            kb.iota(e, Fn.Axis.ROWS, 0).binaryScalar(Fn.Binary.DIV, e, e, 2);
            kb.iota(ci, Fn.Axis.COLS, 0).binaryScalar(Fn.Binary.DIV, cm, ci, 2).muls(cm, cm, 2).sub(cm, ci, cm);
            // forward: odd lanes +sin, even −sin (sign = 2·cm − 1); inverse the opposite
            KTile sgn = kb.tile("sgn", INT32, 1, r);
            kb.muls(sgn, cm, inverse ? -2 : 2).adds(sgn, sgn, inverse ? 1 : -1).cast(sign, sgn);
            kb.loadValid(v, ct, 8, half, 0, 0).transpose(vt, v).gatherRows(g, vt, e).transpose(il, g)
                    .store(il, oc, 0, 0);
            kb.loadValid(v, st, 8, half, 0, 0).transpose(vt, v).gatherRows(g, vt, e).transpose(il, g)
                    .colBroadcast(Fn.Binary.MUL, il, il, sign).store(il, os, 0, 0);
            if (!inverse) {
                // swap = lane + 1 − 2·(lane mod 2), on every row
                KTile sw = kb.tile("sw", INT32, 8, r);
                KTile z = kb.tile("z", INT32, 8, r);
                KTile d1 = kb.tile("d1", INT32, 1, r);
                kb.muls(d1, cm, -2).adds(d1, d1, 1).add(d1, d1, ci).fill(z, 0).colBroadcast(Fn.Binary.ADD, sw, z, d1)
                        .store(sw, ow, 0, 0);
            }
        });
    }

    /**
     * Step 21: scatter the active kv rows to {@code kv_cache[ori_slot_mapping[t]]} ({@link Scatter}: per block of
     * cache rows, the token mapping to each row, its kv row selected over the old one bit-exactly).
     */
    static void cacheWrite(Dsv4Build b, String name, TensorVar kv, TensorVar slots, TensorVar cache2d,
                           TensorVar qr) {
        int t = b.t;
        int hd = b.m.headDim();
        long cacheRows = cache2d.shape()[0];
        KernelRef k = b.aiv(name, kb -> {
            KTensor kvT = kb.input("kv", BF16, 2);
            KTensor sm = kb.input("slot_mapping", INT64, 2);
            KTensor cache = kb.inout("kv_cache", BF16, 2);
            // qr: the indexer's input (CSA); a plain dependency here, so SWA/HCA end the qkv stage on it too
            kb.input("qr", INT8, 2);
            Scatter.body(kb, "", sm, t, cache, BF16, cacheRows, hd, true,
                    (nw, idx, c0) -> kb.loadRows(nw, kvT, idx, 0, c0));
        });
        b.submit(k, in(kv), in(slots.reshape(1, t)), inout(cache2d), in(qr));
    }

}
