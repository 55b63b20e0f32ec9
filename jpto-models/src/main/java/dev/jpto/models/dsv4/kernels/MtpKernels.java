package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;
import static dev.jpto.isa.DType.INT8;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.op.Fn;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4HeapPlan;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.MtpSignature;
import dev.jpto.models.dsv4.TensorSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The MTP block's own chip programs: {@code mtp_projection} (the original's {@code mtp_projection.py}: RMSNorm
 * of the embedding/current hidden and of each previous hidden stream, int8 per row, the two int8 projections,
 * and their sum per stream) and {@code mtp_head} ({@code hc_head}: the stream mix to one hidden, then the MTP
 * RMSNorm).
 */
public final class MtpKernels {
    private MtpKernels() {
    }

    private static List<Dsv4HeapPlan.Alloc> projectionPlan(Dsv4Preset p) {
        long t = p.t();
        long d = p.dims().d();
        long hc = p.dims().hcMult();
        return List.of(alloc("hidden_i8", DType.INT8, t, d), alloc("hidden_scale_dq", FP32, t, 1),
                alloc("prev_i8", DType.INT8, t * hc, d), alloc("prev_scale_dq", FP32, t * hc, 1),
                alloc("hidden_e", FP32, t, d), alloc("prev_h", FP32, t * hc, d));
    }

    private static Dsv4HeapPlan.Alloc alloc(String name, DType dtype, long... shape) {
        return new Dsv4HeapPlan.Alloc("mtp", name, dtype, shape, 1);
    }

    /** {@code mtp_projection}: tokens and {@link MtpSignature#projection} in, {@code projected} [T, HC, D] out. */
    public static Program projection(Dsv4Preset p) {
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        Dsv4Build b = new Dsv4Build("mtp_projection", null, p, Dsv4Faults.NONE, projectionPlan(p));
        Map<String, TensorVar> v = declareInputs(b, MtpSignature.tokens(p));
        v.putAll(declareInputs(b, MtpSignature.projection(p)));
        TensorVar out = b.p.output("projected", FP32, t, hc, d);
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> {
                TensorVar hI8 = b.alloc("hidden_i8");
                TensorVar hSd = b.alloc("hidden_scale_dq");
                TensorVar pI8 = b.alloc("prev_i8");
                TensorVar pSd = b.alloc("prev_scale_dq");
                normQuant(b, "mtp_projection_norm_bf16", BF16, v.get("hidden_states"), t, v.get("enorm_w"),
                        v.get("e_proj_smooth"), hI8, hSd);
                normQuant(b, "mtp_projection_norm_fp32", FP32, v.get("prev_hidden_states").reshape((long) t * hc, d),
                        t * hc, v.get("hnorm_w"), v.get("h_proj_smooth"), pI8, pSd);
                TensorVar e = b.alloc("hidden_e");
                TensorVar h = b.alloc("prev_h");
                linear(b, hI8, hSd, t, v.get("e_proj_w"), v.get("e_proj_w_scale"), e);
                linear(b, pI8, pSd, t * hc, v.get("h_proj_w"), v.get("h_proj_w_scale"), h);
                // projected[t, j, :] = e[t] + h[t·HC + j], D in chunks
                int dc = Dsv4Build.tileOf(d, 1024);
                KernelRef add = b.aiv("mtp_projection_output", kb -> {
                    KTensor et = kb.input("e", FP32, 2);
                    KTensor ht = kb.input("h", FP32, 2);
                    KTensor ot = kb.output("out", FP32, 2);
                    KTile a = kb.tile("a", FP32, 8, dc);
                    KTile c = kb.tile("c", FP32, 8, dc);
                    kb.forRange("n", 0, d, dc, col -> kb.load(a, et, 0, col).load(c, ht, 0, col).add(c, a, c)
                            .store(c, ot, 0, col));
                });
                TensorVar h2 = h.reshape(t, (long) hc * d);
                TensorVar o2 = out.reshape(t, (long) hc * d);
                b.grid(t / 8, hc, add, (i, j) -> Dsv4Build.args(in(e.block(8, d).at(i, 0)),
                        in(h2.at(i.times(8), j.times(d)).size(8, d)),
                        outExisting(o2.at(i.times(8), j.times(d)).size(8, d))));
            });
        });
        return b.p.build();
    }

    /**
     * x·rsqrt(mean x² + eps)·norm_w·smooth per row, then int8 per row (codes and 1/sq); 8 rows per task, D in
     * chunks of 128: Σx², then the normed chunks twice (their amax, then their codes).
     */
    private static void normQuant(Dsv4Build b, String name, DType xType, TensorVar x, int rows, TensorVar normW,
                                  TensorVar smooth, TensorVar q, TensorVar sd) {
        int d = b.m.d();
        int dc = Dsv4Build.tileOf(d, 128);
        KernelRef k = b.aiv(name, kb -> {
            KTensor xt = kb.input("x", xType, 2);
            KTensor wt = kb.input("norm_w", FP32, 2);
            KTensor st = kb.input("smooth", FP32, 2);
            KTensor oq = kb.output("q", INT8, 2);
            KTensor os = kb.output("sd", FP32, 2);
            KTile xc = kb.tile("xc", FP32, 8, dc);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile acc = kb.tile("acc", FP32, 8, 1);
            KTile wr = kb.tile("wr", FP32, 1, dc);
            RowQuant rq = RowQuant.of(kb, 8, dc);
            Tiles.rowInvRms(kb, xt, xc, part, acc, d, b.m.eps());
            rq.overChunks(kb, d, (c, first) -> {
                kb.load(xc, xt, 0, c).rowBroadcast(Fn.Binary.MUL, xc, xc, acc).load(wr, wt, 0, c)
                        .colBroadcast(Fn.Binary.MUL, xc, xc, wr).load(wr, st, 0, c)
                        .colBroadcast(Fn.Binary.MUL, xc, xc, wr);
                return xc;
            }, oq);
            rq.storeScale(kb, os, null);
        });
        b.grid(rows / 8, k, i -> Dsv4Build.args(in(x.block(8, d).at(i, 0)), in(normW.reshape(1, d)),
                in(smooth.reshape(1, d)), outExisting(q.block(8, d).at(i, 0)), outExisting(sd.block(8, 1).at(i, 0))));
    }

    /** y = float(int32(q·Wᵀ))·sd·w_scale: 16 rows × 128 output columns per task (W [out, in] int8). */
    private static void linear(Dsv4Build b, TensorVar q, TensorVar sd, int rows, TensorVar w, TensorVar ws,
                               TensorVar y) {
        int d = b.m.d();
        int nc = Dsv4Build.tileOf(d, 128);
        int kc = Dsv4Build.tileOf(d, 128);
        KernelRef k = b.aic("mtp_projection_linear", kb -> {
            KTensor a = kb.input("q", INT8, 2);
            KTensor s = kb.input("sd", FP32, 2);
            KTensor wt = kb.input("w", INT8, 2);
            KTensor wst = kb.input("w_scale", FP32, 2);
            KTensor o = kb.output("y", FP32, 2);
            KTile ta = kb.tile("ta", INT8, 16, kc);
            KTile tw = kb.tile("tw", INT8, nc, kc);
            KTile accI = kb.tile("acc", INT32, 16, nc);
            KTile f = kb.tile("f", FP32, 16, nc);
            KTile col = kb.tile("col", FP32, 16, 1);
            KTile row = kb.tile("row", FP32, 1, nc);
            kb.fill(accI, 0);
            kb.forRange("k", 0, d, kc, kk -> kb.load(ta, a, 0, kk).load(tw, wt, 0, kk).matmulTransB(accI, ta, tw,
                    true));
            kb.cast(f, accI).load(col, s, 0, 0).rowBroadcast(Fn.Binary.MUL, f, f, col).load(row, wst, 0, 0)
                    .colBroadcast(Fn.Binary.MUL, f, f, row).store(f, o, 0, 0);
        });
        b.grid(rows / 16, d / nc, k, (i, n) -> Dsv4Build.args(in(q.block(16, d).at(i, 0)), in(sd.block(16, 1).at(i, 0)),
                in(w.at(n.times(nc), 0).size(nc, d)),
                in(ws.reshape(1, d).at(0, n.times(nc)).size(1, nc)),
                outExisting(y.at(i.times(16), n.times(nc)).size(16, nc))));
    }

    /** {@code mtp_head}: pre_hc_hidden_out [T, HC, D] and {@link MtpSignature#head} in, hidden_out [T, D] bf16. */
    public static Program head(Dsv4Preset p) {
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        int k = p.dims().hcDim();
        Dsv4Build b = new Dsv4Build("mtp_head", null, p, Dsv4Faults.NONE,
                List.of(alloc("x_head", BF16, t, d)));
        Map<String, TensorVar> v = new HashMap<>();
        v.put("pre_hc_hidden_out", b.p.input("pre_hc_hidden_out", FP32, t, hc, d));
        v.putAll(declareInputs(b, MtpSignature.head(p)));
        TensorVar out = b.p.output("hidden_out", BF16, t, d);
        double eps = p.dims().eps();
        double hcEps = p.dims().hcEps();
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> {
                TensorVar xHead = b.alloc("x_head");
                // K = HC·D in chunks of dc: Σx² and the mix dots x·fn_h in one pass (partial sums per chunk),
                // then x_head = Σ_h pre_h·x_h per D chunk
                int dc = Dsv4Build.tileOf(d, 512);
                KernelRef headK = b.aiv("hc_head", kb -> {
                    KTensor x = kb.input("x", FP32, 2);
                    KTensor fn = kb.input("fn", FP32, 2);
                    KTensor sc = kb.input("scale", FP32, 2);
                    KTensor bs = kb.input("base", FP32, 2);
                    KTensor ot = kb.output("x_head", BF16, 2);
                    KTile xc = kb.tile("xc", FP32, 8, dc);
                    KTile tmp = kb.tile("tmp", FP32, 8, dc);
                    KTile fr = kb.tile("fr", FP32, 1, dc);
                    KTile part = kb.tile("part", FP32, 8, 1);
                    KTile inv = kb.tile("inv", FP32, 8, 1);
                    KTile s8 = kb.tile("s8", FP32, 8, 1);
                    KTile b8 = kb.tile("b8", FP32, 8, 1);
                    KTile[] pre = new KTile[hc];
                    KTile[] xh = new KTile[hc];
                    kb.fill(inv, 0);
                    for (int h = 0; h < hc; h++) {
                        pre[h] = kb.tile("pre" + h, FP32, 8, 1);
                        xh[h] = kb.tile("x" + h, FP32, 8, dc);
                        kb.fill(pre[h], 0);
                    }
                    kb.forRange("k", 0, k, dc, c -> {
                        kb.load(xc, x, 0, c);
                        Tiles.addSquares(kb, inv, xc, tmp, part);
                        for (int h = 0; h < hc; h++) {
                            kb.load(fr, fn, h, c).colBroadcast(Fn.Binary.MUL, tmp, xc, fr).rowSum(part, tmp)
                                    .add(pre[h], pre[h], part);
                        }
                    });
                    Tiles.finishRsqrt(kb, inv, k, eps);
                    HcPreStage.broadcastScalar(kb, s8, sc, 0, "s");
                    for (int h = 0; h < hc; h++) {
                        HcPreStage.broadcastScalar(kb, b8, bs, h, "b" + h);
                        kb.mul(pre[h], pre[h], inv).mul(pre[h], pre[h], s8).add(pre[h], pre[h], b8)
                                .unary(Fn.Unary.SIGMOID, pre[h], pre[h]).adds(pre[h], pre[h], hcEps);
                    }
                    kb.forRange("c", 0, d, dc, c -> {
                        for (int h = 0; h < hc; h++) {
                            kb.load(xh[h], x, 0, c.plus((long) h * d)).rowBroadcast(Fn.Binary.MUL, xh[h], xh[h],
                                    pre[h]);
                        }
                        kb.add(xh[0], xh[0], xh[1]).add(xh[2], xh[2], xh[3]).add(xh[0], xh[0], xh[2])
                                .store(xh[0], ot, 0, c);
                    });
                });
                TensorVar x2 = v.get("pre_hc_hidden_out").reshape(t, k);
                b.grid(t / 8, headK, i -> Dsv4Build.args(in(x2.block(8, k).at(i, 0)), in(v.get("mtp_hc_head_fn")),
                        in(v.get("mtp_hc_head_scale").reshape(1, 1)), in(v.get("mtp_hc_head_base").reshape(1, hc)),
                        outExisting(xHead.block(8, d).at(i, 0))));
                int nc = Dsv4Build.tileOf(d, 128);
                KernelRef norm = b.aiv("mtp_rms_norm", kb -> {
                    KTensor x = kb.input("x", BF16, 2);
                    KTensor w = kb.input("w", BF16, 2);
                    KTensor ot = kb.output("y", BF16, 2);
                    KTile xc = kb.tile("xc", FP32, 8, nc);
                    KTile part = kb.tile("part", FP32, 8, 1);
                    KTile acc = kb.tile("acc", FP32, 8, 1);
                    KTile wr = kb.tile("wr", FP32, 1, nc);
                    Tiles.rowInvRms(kb, x, xc, part, acc, d, eps);
                    kb.forRange("n", 0, d, nc, c -> kb.load(xc, x, 0, c).rowBroadcast(Fn.Binary.MUL, xc, xc, acc)
                            .load(wr, w, 0, c).colBroadcast(Fn.Binary.MUL, xc, xc, wr).store(xc, ot, 0, c));
                });
                b.grid(t / 8, norm, i -> Dsv4Build.args(in(xHead.block(8, d).at(i, 0)),
                        in(v.get("mtp_norm_w").reshape(1, d)), outExisting(out.block(8, d).at(i, 0))));
            });
        });
        return b.p.build();
    }

    private static Map<String, TensorVar> declareInputs(Dsv4Build b, List<TensorSpec> specs) {
        Map<String, TensorVar> v = new HashMap<>();
        for (TensorSpec s : specs) {
            v.put(s.name(), b.p.input(s.name(), s.dtype(), s.shape()));
        }
        return v;
    }
}
