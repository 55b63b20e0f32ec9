package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;
import static dev.jpto.isa.DType.INT8;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.isa.op.Fn;
import dev.jpto.models.dsv4.Dsv4Moe;
import java.util.List;

/**
 * The MoE FFN stages of the original's {@code moe.py} as chip kernels: {@code gate} (hc_pre of the FFN, the
 * deferred RMSNorm with per-token int8 quantisation, the fp32 router matmul, sqrt-softplus scores, biased top-k
 * and the normalised routing weights), the experts (dispatch weights per receive lane, SwiGLU W1/W3 with int8
 * requantisation, W2 scaled by the routing weight), the shared expert, and the combine (shared + routed, bf16)
 * followed by hc_post.
 *
 * <p>Receive lanes are dense (one T-row lane per source rank, the original's RECV_MAX = N_RANKS·T; a lane not
 * routed to the expert carries weight 0). Where the original reads each expert's row count at orchestration time
 * ({@code pl.read}) and runs only that many row tiles, these programs read one flag per 16-lane tile: a tile with
 * a routed lane runs W1/W3 and W2, a tile without one only writes its zeros (its output would be exactly zero).
 */
final class MoeKernels {
    private MoeKernels() {
    }

    /** Gate outputs (program outputs or heap intermediates). */
    record GateOut(TensorVar xNormI8, TensorVar xNormScale, TensorVar indices, TensorVar weights) {
    }

    /** One source rank's dispatch inputs as the experts read them. */
    record Source(TensorVar xNormI8, TensorVar xNormScale, TensorVar indices, TensorVar weights) {
    }

    /** Routed-expert weights of this rank ([N_LOCAL, out, in] int8, [N_LOCAL, out] fp32 scales). */
    record ExpertWeights(TensorVar w1, TensorVar w1s, TensorVar w3, TensorVar w3s, TensorVar w2, TensorVar w2s) {
    }

    /**
     * gate.py after hc_pre: writes {@code out}; {@code xMixed} is hc_pre's bf16 mix [T, D]. Intermediates
     * ffn_inv_rms, xg, gate_logits, gate_scores come from the plan.
     */
    static void gate(Dsv4Build b, Dsv4Moe moe, TensorVar xMixed, TensorVar normW, TensorVar gateW,
                     TensorVar gateBias, GateOut out) {
        int t = b.t;
        int d = b.m.d();
        int e = moe.nExperts();
        int k = moe.topk();
        TensorVar inv = b.alloc("ffn_inv_rms");
        TensorVar xg = b.alloc("xg");
        TensorVar logits = b.alloc("gate_logits");
        TensorVar scores = b.alloc("gate_scores");

        // ffn_norm + quant, 8 rows per task, D in chunks of D/8: Σx² in ROW_PAD = 8 partial sums (the original's
        // two stages), then xg = x·gamma (inv_rms deferred) and its int8 per row; x_norm_scale = (1/sq)·inv_rms
        int chunk = d / 8;
        KernelRef norm = b.aiv("ffn_norm_quant", kb -> {
            KTensor x = kb.input("x_mixed", BF16, 2);
            KTensor w = kb.input("norm_w", BF16, 2);
            KTensor oXg = kb.output("xg", FP32, 2);
            KTensor oQ = kb.output("x_norm_i8", INT8, 2);
            KTensor oS = kb.output("x_norm_scale", FP32, 2);
            KTensor oInv = kb.output("inv_rms", FP32, 2);
            KTile xc = kb.tile("xc", FP32, 8, chunk);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile acc = kb.tile("acc", FP32, 8, 1);
            KTile wr = kb.tile("wr", FP32, 1, chunk);
            RowQuant rq = RowQuant.of(kb, 8, chunk);
            Tiles.rowInvRms(kb, x, xc, part, acc, d, b.m.eps());
            kb.store(acc, oInv, 0, 0);
            rq.overChunks(kb, d, (c, first) -> {
                kb.load(xc, x, 0, c).load(wr, w, 0, c).colBroadcast(Fn.Binary.MUL, xc, xc, wr);
                if (first) {
                    kb.store(xc, oXg, 0, c);
                }
                return xc;
            }, oQ);
            rq.storeScale(kb, oS, acc);
        });
        b.grid(t / 8, norm, i -> Dsv4Build.args(in(xMixed.block(8, d).at(i, 0)), in(normW.reshape(1, d)),
                outExisting(xg.block(8, d).at(i, 0)), outExisting(out.xNormI8().block(8, d).at(i, 0)),
                outExisting(out.xNormScale().block(8, 1).at(i, 0)), outExisting(inv.block(8, 1).at(i, 0))));

        // router matmul (fp32 cube): logits[:, n..n+16) = xg · gate_w[n..n+16)ᵀ, all rows, one accumulator over D
        int nt = Dsv4Build.tileOf(e, 16);
        int kc = Dsv4Build.tileOf(d, 512);
        KernelRef mm = b.aic("gate_logits", kb -> {
            KTensor a = kb.input("xg", FP32, 2);
            KTensor w = kb.input("gate_w", FP32, 2);
            KTensor o = kb.output("logits", FP32, 2);
            KTile ta = kb.tile("ta", FP32, 16, kc);
            KTile tw = kb.tile("tw", FP32, nt, kc);
            KTile tc = kb.tile("tc", FP32, 16, nt);
            kb.forRange("m", 0, t, 16, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, d, kc, kk -> kb.load(ta, a, mi, kk).load(tw, w, 0, kk)
                        .matmulTransB(tc, ta, tw, true));
                kb.store(tc, o, mi, 0);
            });
        });
        b.grid(e / nt, mm, n -> Dsv4Build.args(in(xg), in(gateW.at(n.times(nt), 0).size(nt, d)),
                outExisting(logits.at(0, n.times(nt)).size(t, nt))));

        // scores = sqrt(softplus(inv_rms·logits)); indices = top-k of scores + bias (ties: lower id first)
        KernelRef topk = b.aiv("route_topk", kb -> {
            KTensor l = kb.input("logits", FP32, 2);
            KTensor iv = kb.input("inv_rms", FP32, 2);
            KTensor bs = kb.input("gate_bias", FP32, 2);
            KTensor oS = kb.output("scores", FP32, 2);
            KTensor oI = kb.output("indices", INT32, 2);
            KTile s = kb.tile("s", FP32, 8, e);
            KTile a = kb.tile("a", FP32, 8, e);
            KTile col = kb.tile("col", FP32, 8, 1);
            KTile br = kb.tile("br", FP32, 1, e);
            KTile vals = kb.tile("vals", FP32, 8, k);
            KTile idx = kb.tile("idx", INT32, 8, k);
            kb.load(s, l, 0, 0).load(col, iv, 0, 0).rowBroadcast(Fn.Binary.MUL, s, s, col);
            // softplus(l) = relu(l) + log(1 + exp(-|l|))
            kb.unary(Fn.Unary.ABS, a, s).muls(a, a, -1).exp(a, a).adds(a, a, 1).unary(Fn.Unary.LOG, a, a)
                    .relu(s, s).add(s, s, a).sqrt(s, s).store(s, oS, 0, 0);
            kb.load(br, bs, 0, 0).colBroadcast(Fn.Binary.ADD, a, s, br).topK(vals, idx, a, k).store(idx, oI, 0, 0);
        });
        b.grid(t / 8, topk, i -> Dsv4Build.args(in(logits.block(8, e).at(i, 0)), in(inv.block(8, 1).at(i, 0)),
                in(gateBias.reshape(1, e)), outExisting(scores.block(8, e).at(i, 0)),
                outExisting(out.indices().block(8, k).at(i, 0))));

        // weights = score[idx_k] / Σ_k score[idx_k] · ROUTE_SCALE (unbiased scores at the chosen ids)
        double scale = moe.routeScale();
        KernelRef wts = b.aiv("route_weights", kb -> {
            KTensor sc = kb.input("scores", FP32, 2);
            KTensor ix = kb.input("indices", INT32, 2);
            KTensor o = kb.output("weights", FP32, 2);
            KTile s = kb.tile("s", FP32, 8, e);
            KTile ids = kb.tile("ids", FP32, 8, e);
            KTile diff = kb.tile("diff", FP32, 8, e);
            KTile zero = kb.tile("zero", FP32, 8, e);
            KTile mask = kb.tile("mask", BOOL, 8, e);
            KTile ci = kb.tile("ci", INT32, 8, 1);
            KTile cf = kb.tile("cf", FP32, 8, 1);
            KTile den = kb.tile("den", FP32, 8, 1);
            KTile[] w = new KTile[k];
            kb.load(s, sc, 0, 0).iota(ids, Fn.Axis.COLS, 0).fill(zero, 0).fill(den, 0);
            for (int j = 0; j < k; j++) {
                w[j] = kb.tile("w" + j, FP32, 8, 1);
                kb.load(ci, ix, 0, j).cast(cf, ci).rowBroadcast(Fn.Binary.SUB, diff, ids, cf)
                        .compareScalar(Fn.Compare.EQ, mask, diff, 0).select(diff, mask, s, zero).rowSum(w[j], diff)
                        .add(den, den, w[j]);
            }
            for (int j = 0; j < k; j++) {
                kb.div(w[j], w[j], den).muls(w[j], w[j], scale).store(w[j], o, 0, j);
            }
        });
        b.grid(t / 8, wts, i -> Dsv4Build.args(in(scores.block(8, e).at(i, 0)),
                in(out.indices().block(8, k).at(i, 0)), outExisting(out.weights().block(8, k).at(i, 0))));
    }

    /**
     * Dispatch: the routing weight of every receive lane of this rank's experts, {@code recvW[e, s·T + t] =
     * Σ_k weights_s[t,k]·[indices_s[t,k] = rank·N_LOCAL + e]} (0 when token t of source s is not routed to e), and
     * {@code active[e, j]} = 1 when 16-lane tile j of expert e has a lane with a non-zero weight, else 0.
     */
    static void dispatch(Dsv4Build b, Dsv4Moe moe, int rank, List<Source> sources, TensorVar recvW,
                         TensorVar active) {
        int t = b.t;
        int nl = moe.nLocal();
        int k = moe.topk();
        KernelRef disp = b.aiv("dispatch_weights", kb -> {
            KTensor ix = kb.input("indices", INT32, 2);
            KTensor wt = kb.input("weights", FP32, 2);
            KTensor o = kb.output("recv_w", FP32, 2);
            KTile ids = kb.tile("ids", FP32, t, nl);
            KTile diff = kb.tile("diff", FP32, t, nl);
            KTile zero = kb.tile("zero", FP32, t, nl);
            KTile wb = kb.tile("wb", FP32, t, nl);
            KTile acc = kb.tile("acc", FP32, t, nl);
            KTile mask = kb.tile("mask", BOOL, t, nl);
            KTile ci = kb.tile("ci", INT32, t, 1);
            KTile cf = kb.tile("cf", FP32, t, 1);
            KTile wc = kb.tile("wc", FP32, t, 1);
            KTile tr = kb.tile("tr", FP32, nl, t);
            kb.iota(ids, Fn.Axis.COLS, (double) rank * nl).fill(zero, 0).fill(acc, 0);
            for (int j = 0; j < k; j++) {
                kb.load(ci, ix, 0, j).cast(cf, ci).load(wc, wt, 0, j).rowBroadcast(Fn.Binary.SUB, diff, ids, cf)
                        .compareScalar(Fn.Compare.EQ, mask, diff, 0).rowBroadcast(Fn.Binary.ADD, wb, zero, wc)
                        .select(wb, mask, wb, zero).add(acc, acc, wb);
            }
            kb.transpose(tr, acc).store(tr, o, 0, 0);
        });
        KernelRef flags = b.aiv("dispatch_active", kb -> {
            KTensor w = kb.input("recv_w", FP32, 2);
            KTensor o = kb.output("active", INT32, 2);
            KTile lanes = kb.tile("lanes", FP32, nl, 16);
            KTile one = kb.tile("one", FP32, nl, 16);
            KTile zero = kb.tile("zero", FP32, nl, 16);
            KTile mask = kb.tile("mask", BOOL, nl, 16);
            KTile any = kb.tile("any", FP32, nl, 1);
            KTile flag = kb.tile("flag", INT32, nl, 1);
            kb.fill(one, 1).fill(zero, 0);
            kb.forRange("j", 0, t / 16, j -> kb.load(lanes, w, 0, j.times(16))
                    .compareScalar(Fn.Compare.NE, mask, lanes, 0).select(lanes, mask, one, zero).rowMax(any, lanes)
                    .cast(flag, any).store(flag, o, 0, j));
        });
        for (int s = 0; s < sources.size(); s++) {
            Source src = sources.get(s);
            TensorVar lanes = recvW.at(0, (long) s * t).size(nl, t);
            b.submit(disp, in(src.indices()), in(src.weights()), outExisting(lanes));
            b.submit(flags, in(lanes), outExisting(active.at(0, (long) s * (t / 16)).size(nl, t / 16)));
        }
    }

    /**
     * SwiGLU W1/W3 over 16 rows: gate/up = int32(x_i8·Wᵀ)·x_scale·w_scale, clamp (gate ≤ L, |up| ≤ L when
     * L > 0), h = silu(gate)·up, then per-row int8 requantisation (h_i8, h_sd = 1/sq). N in tiles of up to 256 and
     * K of up to 256 (a 64 KiB int8 weight tile in L0B), as the original loops over N tiles; h stays on chip, one
     * L1 tile per N tile (unrolled here), until the row's amax over all of them gives the scale.
     */
    private static KernelRef w13(Dsv4Build b, Dsv4Moe moe, String name) {
        int d = b.m.d();
        int inter = moe.inter();
        int kc = Dsv4Build.tileOf(d, 256);
        int nc = Dsv4Build.tileOf(inter, 256);
        double lim = moe.swigluLimit();
        return b.aic(name, kb -> {
            KTensor x = kb.input("x_i8", INT8, 2);
            KTensor xs = kb.input("x_scale", FP32, 2);
            KTensor w1 = kb.input("w1", INT8, 2);
            KTensor w1s = kb.input("w1_scale", FP32, 2);
            KTensor w3 = kb.input("w3", INT8, 2);
            KTensor w3s = kb.input("w3_scale", FP32, 2);
            KTensor oQ = kb.output("h_i8", INT8, 2);
            KTensor oS = kb.output("h_sd", FP32, 2);
            KTile ta = kb.tile("ta", INT8, 16, kc);
            KTile tw = kb.tile("tw", INT8, nc, kc);
            KTile gi = kb.tile("gi", INT32, 16, nc);
            KTile ui = kb.tile("ui", INT32, 16, nc);
            KTile g = kb.tile("g", FP32, 16, nc);
            KTile sr = kb.tile("sr", FP32, 1, nc);
            KTile xc = kb.tile("xc", FP32, 16, 1);
            RowQuant rq = RowQuant.of(kb, 16, nc);
            KTile[] h = new KTile[inter / nc];
            kb.load(xc, xs, 0, 0);
            rq.start(kb);
            for (int j = 0; j < h.length; j++) {
                int n = j * nc;
                h[j] = kb.tile("h" + j, FP32, 16, nc);
                kb.fill(gi, 0).fill(ui, 0);
                kb.forRange("k" + j, 0, d, kc, kk -> kb.load(ta, x, 0, kk).load(tw, w1, n, kk)
                        .matmulTransB(gi, ta, tw, true).load(tw, w3, n, kk).matmulTransB(ui, ta, tw, true));
                kb.cast(g, gi).rowBroadcast(Fn.Binary.MUL, g, g, xc).load(sr, w1s, 0, n)
                        .colBroadcast(Fn.Binary.MUL, g, g, sr);
                kb.cast(h[j], ui).rowBroadcast(Fn.Binary.MUL, h[j], h[j], xc).load(sr, w3s, 0, n)
                        .colBroadcast(Fn.Binary.MUL, h[j], h[j], sr);
                if (lim > 0) {
                    kb.binaryScalar(Fn.Binary.MIN, g, g, lim).binaryScalar(Fn.Binary.MIN, h[j], h[j], lim)
                            .binaryScalar(Fn.Binary.MAX, h[j], h[j], -lim);
                }
                kb.unary(Fn.Unary.SILU, g, g).mul(h[j], g, h[j]);
                rq.add(kb, h[j]);
            }
            rq.finish(kb);
            for (int j = 0; j < h.length; j++) {
                rq.codes(kb, h[j], oQ, j * nc);
            }
            rq.storeScale(kb, oS, null);
        });
    }

    /**
     * W2 over 16 rows × up to 1024 output columns: y = float(int32(h_i8·W2ᵀ))·(h_sd·w)·w2_scale, bf16; w is the
     * lane's routing weight ({@code weighted}) or 1 (the shared expert, y·h_sd·w2_scale). The columns in tiles
     * of up to 256 and K of up to 256, so the int8 weight tile fits L0B (64 KiB).
     */
    private static KernelRef w2(Dsv4Build b, Dsv4Moe moe, String name, boolean weighted) {
        int d = b.m.d();
        int inter = moe.inter();
        int nd = Dsv4Build.tileOf(d, 1024);
        int nc = Dsv4Build.tileOf(nd, 256);
        int kc = Dsv4Build.tileOf(inter, 256);
        return b.aic(name, kb -> {
            KTensor h = kb.input("h_i8", INT8, 2);
            KTensor hs = kb.input("h_sd", FP32, 2);
            KTensor lw = weighted ? kb.input("lane_w", FP32, 2) : null;
            KTensor w2 = kb.input("w2", INT8, 2);
            KTensor w2s = kb.input("w2_scale", FP32, 2);
            KTensor o = kb.output("y", BF16, 2);
            KTile ta = kb.tile("ta", INT8, 16, kc);
            KTile tw = kb.tile("tw", INT8, nc, kc);
            KTile acc = kb.tile("acc", INT32, 16, nc);
            KTile y = kb.tile("yf", FP32, 16, nc);
            KTile rs = kb.tile("rs", FP32, 16, 1);
            KTile sr = kb.tile("sr", FP32, 1, nc);
            kb.load(rs, hs, 0, 0);
            if (weighted) {
                KTile wr = kb.tile("wr", FP32, 1, 16);
                KTile wcol = kb.tile("wcol", FP32, 16, 1);
                kb.load(wr, lw, 0, 0).transpose(wcol, wr).mul(rs, rs, wcol);
            }
            kb.forRange("n", 0, nd, nc, n -> {
                kb.fill(acc, 0);
                kb.forRange("k", 0, inter, kc, kk -> kb.load(ta, h, 0, kk).load(tw, w2, n, kk)
                        .matmulTransB(acc, ta, tw, true));
                kb.cast(y, acc).rowBroadcast(Fn.Binary.MUL, y, y, rs).load(sr, w2s, 0, n)
                        .colBroadcast(Fn.Binary.MUL, y, y, sr).store(y, o, 0, n);
            });
        });
    }

    /**
     * The routed experts of this rank over their receive lanes, 16 lanes at a time: the orchestration reads the
     * tile's {@code active} flag; an active tile runs W1/W3, then W2 as one SPMD task of a block per D chunk (the
     * original's {@code exp_w2_mm} grid) into {@code recvY} [N_LOCAL·RECV_MAX, D] bf16; an inactive one writes zeros
     * there (one grid too).
     */
    static void routed(Dsv4Build b, Dsv4Moe moe, List<Source> sources, TensorVar recvW, TensorVar active,
                       ExpertWeights w, TensorVar recvY) {
        int t = b.t;
        int d = b.m.d();
        int nl = moe.nLocal();
        int inter = moe.inter();
        int lanes = moe.recvMax(t);
        int nd = Dsv4Build.tileOf(d, 1024);
        TensorVar hI8 = b.alloc("routed_h_i8");
        TensorVar hSd = b.alloc("routed_h_sd");
        KernelRef k13 = w13(b, moe, "routed_w13");
        KernelRef k2 = w2(b, moe, "routed_w2", true);
        KernelRef zero = b.aiv("routed_zero", kb -> {
            KTensor o = kb.output("y", BF16, 2);
            KTile z = kb.tile("z", FP32, 16, nd);
            kb.fill(z, 0).store(z, o, 0, 0);
        });
        TensorVar w1 = w.w1().reshape((long) nl * inter, d);
        TensorVar w3 = w.w3().reshape((long) nl * inter, d);
        TensorVar w2 = w.w2().reshape((long) nl * d, inter);
        for (int s = 0; s < sources.size(); s++) {
            Source src = sources.get(s);
            long base = (long) s * t;
            long tileBase = (long) s * (t / 16);
            b.o.forRange("e", nl, e -> b.o.forRange("i", t / 16, i -> {
                Affine lane = e.times(lanes).plus(i.times(16)).plus(base);
                Affine on = b.o.read("on", active.at(e, i.plus(tileBase)).size(1, 1), 1);
                b.o.forRange("run", on, run -> {
                    b.submit(k13, in(src.xNormI8().block(16, d).at(i, 0)), in(src.xNormScale().block(16, 1).at(i, 0)),
                            in(w1.block(inter, d).at(e, 0)), in(w.w1s().block(1, inter).at(e, 0)),
                            in(w3.block(inter, d).at(e, 0)), in(w.w3s().block(1, inter).at(e, 0)),
                            outExisting(hI8.at(lane, 0).size(16, inter)), outExisting(hSd.at(lane, 0).size(16, 1)));
                    b.grid(d / nd, k2, c -> Dsv4Build.args(in(hI8.at(lane, 0).size(16, inter)),
                            in(hSd.at(lane, 0).size(16, 1)), in(recvW.at(e, i.times(16).plus(base)).size(1, 16)),
                            in(w2.at(e.times(d).plus(c.times(nd)), 0).size(nd, inter)),
                            in(w.w2s().at(e, c.times(nd)).size(1, nd)),
                            outExisting(recvY.at(lane, c.times(nd)).size(16, nd))));
                });
                b.o.forRange("skip", Affine.of(1).minus(on), skip -> b.grid(d / nd, zero,
                        c -> Dsv4Build.args(outExisting(recvY.at(lane, c.times(nd)).size(16, nd)))));
            }));
        }
    }

    /** The shared expert on this rank's tokens: sh [T, D] bf16. */
    static void shared(Dsv4Build b, Dsv4Moe moe, Source own, TensorVar w1, TensorVar w1s, TensorVar w3,
                       TensorVar w3s, TensorVar w2, TensorVar w2s, TensorVar sh) {
        int t = b.t;
        int d = b.m.d();
        int inter = moe.inter();
        int nd = Dsv4Build.tileOf(d, 1024);
        TensorVar hI8 = b.alloc("shared_h_i8");
        TensorVar hSd = b.alloc("shared_h_sd");
        KernelRef k13 = w13(b, moe, "shared_w13");
        KernelRef k2 = w2(b, moe, "shared_w2", false);
        b.grid(t / 16, k13, i -> Dsv4Build.args(in(own.xNormI8().block(16, d).at(i, 0)),
                in(own.xNormScale().block(16, 1).at(i, 0)), in(w1), in(w1s.reshape(1, inter)), in(w3),
                in(w3s.reshape(1, inter)), outExisting(hI8.block(16, inter).at(i, 0)),
                outExisting(hSd.block(16, 1).at(i, 0))));
        b.grid(t / 16, d / nd, k2, (i, c) -> Dsv4Build.args(in(hI8.block(16, inter).at(i, 0)),
                in(hSd.block(16, 1).at(i, 0)),
                in(w2.at(c.times(nd), 0).size(nd, inter)), in(w2s.reshape(1, d).at(0, c.times(nd)).size(1, nd)),
                outExisting(sh.at(i.times(16), c.times(nd)).size(16, nd))));
    }

    /**
     * Combine on rank {@code rank}: ffn_out[t] = bf16(sh[t] + Σ_dst Σ_e recvY_dst[e, rank·T + t]); lanes not routed
     * to e hold exact zeros, so the sum is sh plus the token's TOPK routed outputs.
     */
    static void combine(Dsv4Build b, Dsv4Moe moe, int rank, TensorVar sh, List<TensorVar> recvY, TensorVar ffnOut) {
        int t = b.t;
        int d = b.m.d();
        int nl = moe.nLocal();
        int lanes = moe.recvMax(t);
        int nd = Dsv4Build.tileOf(d, 1024);
        int ranks = recvY.size();
        KernelRef k = b.aiv("combine_r" + ranks, kb -> {
            KTensor s = kb.input("sh", BF16, 2);
            KTensor[] ry = new KTensor[ranks];
            for (int r = 0; r < ranks; r++) {
                ry[r] = kb.input("recv_y" + r, BF16, 2);
            }
            KTensor o = kb.output("ffn_out", BF16, 2);
            KTile acc = kb.tile("acc", FP32, 16, nd);
            KTile u = kb.tile("u", FP32, 16, nd);
            kb.load(acc, s, 0, 0);
            for (int r = 0; r < ranks; r++) {
                KTensor src = ry[r];
                int ri = r;
                kb.forRange("e" + ri, 0, nl, e -> kb.load(u, src, e.times(lanes), 0).add(acc, acc, u));
            }
            kb.store(acc, o, 0, 0);
        });
        long base = (long) rank * t;
        b.grid(t / 16, d / nd, k, (i, c) -> {
            TaskArg[] args = new TaskArg[ranks + 2];
            args[0] = in(sh.at(i.times(16), c.times(nd)).size(16, nd));
            for (int r = 0; r < ranks; r++) {
                args[r + 1] = in(recvY.get(r).at(i.times(16).plus(base), c.times(nd))
                        .size((long) (nl - 1) * lanes + 16, nd));
            }
            args[ranks + 1] = outExisting(ffnOut.at(i.times(16), c.times(nd)).size(16, nd));
            return args;
        });
    }
}
