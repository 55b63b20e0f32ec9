package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.op.Fn;

/**
 * hc_pre (spec §3.1, decomposition §2.2) and rms_norm (§2.3 step 9): the hyper-connection mix of the four
 * residual streams into x_mixed, its post/comb weights, and x_normed.
 */
final class HcPreStage {
    /** hc_pre's mix columns as the original pads them (24 used: pre 4, post 4, comb 16). */
    static final int MIX_PAD = 32;

    /** Label of the rms_norm grid, which the original's {@code late_dep} barrier waits for. */
    static final String RMS_NORM = "rms_norm";

    private HcPreStage() {
    }

    record Out(TensorVar xMixed, TensorVar post, TensorVar comb) {
    }

    /** Steps 1–8. {@code xHc} is x_hc seen as [T, 4D]. */
    static Out run(Dsv4Build b, TensorVar xHc, TensorVar fn, TensorVar scale, TensorVar base) {
        return run(b, xHc, fn, scale, base, null, null);
    }

    /** As above, writing post and comb into {@code postOut} / {@code combOut} when given (program outputs). */
    static Out run(Dsv4Build b, TensorVar xHc, TensorVar fn, TensorVar scale, TensorVar base, TensorVar postOut,
                   TensorVar combOut) {
        int t = b.t;
        int hc = b.m.hcMult();
        int k = b.m.hcDim();
        int mix = b.m.mixHc();
        TensorVar xMixed = b.alloc("x_mixed");
        TensorVar post = postOut != null ? postOut : b.alloc("post");
        TensorVar comb = combOut != null ? combOut : b.alloc("comb");
        TensorVar invRms = b.alloc("inv_rms");
        TensorVar mixesRaw = b.alloc("mixes_raw");
        TensorVar partials = b.alloc("mixes_partials");
        TensorVar scale2 = scale.reshape(1, 3);
        TensorVar base2 = base.reshape(1, mix);

        // 1: inv_rms, 8 rows per task
        int kc = Dsv4Build.tileOf(k, 1024);
        KernelRef rms = b.aiv("hc_pre_rms", kb -> {
            KTensor x = kb.input("x", FP32, 2);
            KTensor o = kb.output("inv", FP32, 2);
            KTile xs = kb.tile("xs", FP32, 8, kc);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile acc = kb.tile("acc", FP32, 8, 1);
            kb.fill(acc, 0);
            kb.forRange("c", 0, k, kc, c -> kb.load(xs, x, 0, c).mul(xs, xs, xs).rowSum(part, xs).add(acc, acc, part));
            kb.muls(acc, acc, 1.0 / k).adds(acc, acc, b.m.eps()).unary(Fn.Unary.RSQRT, acc, acc).store(acc, o, 0, 0);
        });
        b.grid(t / 8, rms, i -> Dsv4Build.args(in(xHc.block(8, k).at(i, 0)),
                outExisting(invRms.block(8, 1).at(i, 0))));

        // 2: split-K linear, 16 rows × all mix columns × one quarter of K per task
        int kq = k / 4;
        int kcq = Dsv4Build.tileOf(kq, 256);
        KernelRef lin = b.aic("hc_pre_linear", kb -> {
            KTensor x = kb.input("x", FP32, 2);
            KTensor w = kb.input("fn", FP32, 2);
            KTensor o = kb.output("part", FP32, 2);
            KTile a = kb.tile("a", FP32, 16, kcq);
            KTile wt = kb.tile("w", FP32, mix, kcq);
            KTile acc = kb.tile("acc", FP32, 16, mix);
            kb.fill(acc, 0);
            kb.forRange("c", 0, kq, kcq, c -> kb.load(a, x, 0, c).load(wt, w, 0, c).matmulTransB(acc, a, wt, true));
            kb.store(acc, o, 0, 0);
        });
        b.grid(t / 16, 4, lin, (i, q) -> Dsv4Build.args(in(xHc.at(i.times(16), q.times(kq)).size(16, kq)),
                in(fn.at(0, q.times(kq)).size(mix, kq)),
                outExisting(partials.at(q.times(t).plus(i.times(16)), 0).size(16, mix))));

        // 3: add the 4 partials in order
        KernelRef red = b.aiv("hc_pre_linear_reduce", kb -> {
            KTensor pt = kb.input("partials", FP32, 2);
            KTensor o = kb.output("mixes", FP32, 2);
            KScalar r0 = kb.scalar("r0");
            KTile acc = kb.tile("acc", FP32, 16, mix);
            KTile u = kb.tile("u", FP32, 16, mix);
            kb.load(acc, pt, r0, 0);
            kb.forRange("q", 1, 4, q -> kb.load(u, pt, r0.plus(q.times(t)), 0).add(acc, acc, u));
            kb.store(acc, o, 0, 0);
        });
        b.grid(t / 16, red, i -> Dsv4Build.args(in(partials),
                outExisting(mixesRaw.at(i.times(16), 0).size(16, mix)), scalar(i.times(16))));

        // 4, 5: pre and post raw mixes, one row per task, as vector dot products with hc_fn rows 0..3 / 4..7
        TensorVar preRaw = b.alloc("pre_raw_store");
        KernelRef dot = b.aiv("hc_pre_linear_vector", kb -> {
            KTensor x = kb.input("x", FP32, 2);
            KTensor w = kb.input("fn", FP32, 2);
            KTensor o = kb.output("raw", FP32, 2);
            KTile xr = kb.tile("xr", FP32, 1, kc);
            KTile wt = kb.tile("w", FP32, hc, kc);
            KTile part = kb.tile("part", FP32, hc, 1);
            KTile acc = kb.tile("acc", FP32, hc, 1);
            KTile row = kb.tile("row", FP32, 1, hc);
            kb.fill(acc, 0);
            kb.forRange("c", 0, k, kc, c -> kb.load(xr, x, 0, c).load(wt, w, 0, c)
                    .colBroadcast(Fn.Binary.MUL, wt, wt, xr).rowSum(part, wt).add(acc, acc, part));
            kb.transpose(row, acc).store(row, o, 0, 0);
        });
        b.grid(t, dot, r -> Dsv4Build.args(in(xHc.block(1, k).at(r, 0)), in(fn.at(0, 0).size(hc, k)),
                outExisting(preRaw.at(r, 0).size(1, hc))));
        TensorVar postRaw = b.alloc("post_raw_store");
        b.grid(t, dot, r -> Dsv4Build.args(in(xHc.block(1, k).at(r, 0)), in(fn.at(hc, 0).size(hc, k)),
                outExisting(postRaw.at(r, 0).size(1, hc))));

        // 6: pre = σ(raw·inv·scale0 + base) + eps, post = 2σ(raw·inv·scale1 + base)
        TensorVar preVal = b.alloc("pre_val_store");
        KernelRef split = b.aiv("split_pre_post", kb -> {
            KTensor pr = kb.input("pre_raw", FP32, 2);
            KTensor po = kb.input("post_raw", FP32, 2);
            KTensor inv = kb.input("inv", FP32, 2);
            KTensor sc = kb.input("scale", FP32, 2);
            KTensor bs = kb.input("base", FP32, 2);
            KTensor preO = kb.output("pre", FP32, 2);
            KTensor postO = kb.output("post", FP32, 2);
            KTile v = kb.tile("v", FP32, 8, hc);
            KTile iv = kb.tile("iv", FP32, 8, 1);
            KTile s8 = kb.tile("s8", FP32, 8, 1);
            KTile bb = kb.tile("bb", FP32, 1, hc);
            kb.load(iv, inv, 0, 0);
            kb.load(v, pr, 0, 0).rowBroadcast(Fn.Binary.MUL, v, v, iv);
            broadcastScalar(kb, s8, sc, 0, "s");
            kb.rowBroadcast(Fn.Binary.MUL, v, v, s8).load(bb, bs, 0, 0).colBroadcast(Fn.Binary.ADD, v, v, bb)
                    .unary(Fn.Unary.SIGMOID, v, v).adds(v, v, b.m.hcEps()).store(v, preO, 0, 0);
            kb.load(v, po, 0, 0).rowBroadcast(Fn.Binary.MUL, v, v, iv);
            broadcastScalar(kb, s8, sc, 1, "p");
            kb.rowBroadcast(Fn.Binary.MUL, v, v, s8).load(bb, bs, 0, hc).colBroadcast(Fn.Binary.ADD, v, v, bb)
                    .unary(Fn.Unary.SIGMOID, v, v).muls(v, v, 2).store(v, postO, 0, 0);
        });
        b.grid(t / 8, split, i -> Dsv4Build.args(in(preRaw.at(i.times(8), 0).size(8, hc)),
                in(postRaw.at(i.times(8), 0).size(8, hc)), in(invRms.block(8, 1).at(i, 0)), in(scale2), in(base2),
                outExisting(preVal.at(i.times(8), 0).size(8, hc)), outExisting(post.block(8, hc).at(i, 0))));

        // 7: comb = Sinkhorn(softmax(logits)), 8 rows per task; comb column 4i+j is stream i → output j
        int iters = b.m.sinkhornIters();
        float eps = (float) b.m.hcEps();
        KernelRef sink = b.aiv("comb_sinkhorn", kb -> {
            KTensor mx = kb.input("mixes", FP32, 2);
            KTensor inv = kb.input("inv", FP32, 2);
            KTensor sc = kb.input("scale", FP32, 2);
            KTensor bs = kb.input("base", FP32, 2);
            KTensor co = kb.output("comb", FP32, 2);
            KTile[] c = new KTile[hc];
            for (int i = 0; i < hc; i++) {
                c[i] = kb.tile("c" + i, FP32, 8, hc);
            }
            KTile iv = kb.tile("iv", FP32, 8, 1);
            KTile s8 = kb.tile("s8", FP32, 8, 1);
            KTile rs = kb.tile("rs", FP32, 8, 1);
            KTile bb = kb.tile("bb", FP32, 1, hc);
            KTile cs = kb.tile("cs", FP32, 8, hc);
            kb.load(iv, inv, 0, 0);
            broadcastScalar(kb, s8, sc, 2, "c");
            for (int i = 0; i < hc; i++) {
                kb.load(c[i], mx, 0, 2 * hc + hc * i).rowBroadcast(Fn.Binary.MUL, c[i], c[i], iv)
                        .rowBroadcast(Fn.Binary.MUL, c[i], c[i], s8).load(bb, bs, 0, 2 * hc + hc * i)
                        .colBroadcast(Fn.Binary.ADD, c[i], c[i], bb)
                        .rowMax(rs, c[i]).rowBroadcast(Fn.Binary.SUB, c[i], c[i], rs).exp(c[i], c[i])
                        .rowSum(rs, c[i]).rowBroadcast(Fn.Binary.DIV, c[i], c[i], rs).adds(c[i], c[i], eps);
            }
            normaliseColumns(kb, c, cs, eps);
            kb.forRange("it", 1, iters, it -> {
                for (int i = 0; i < hc; i++) {
                    kb.rowSum(rs, c[i]).adds(rs, rs, eps).rowBroadcast(Fn.Binary.DIV, c[i], c[i], rs);
                }
                normaliseColumns(kb, c, cs, eps);
            });
            for (int i = 0; i < hc; i++) {
                kb.store(c[i], co, 0, hc * i);
            }
        });
        b.grid(t / 8, sink, i -> Dsv4Build.args(in(mixesRaw.at(i.times(8), 0).size(8, MIX_PAD)),
                in(invRms.block(8, 1).at(i, 0)), in(scale2), in(base2), outExisting(comb.block(8, hc * hc).at(i, 0))));

        // 8: x_mixed = bf16((p0·x0 + p1·x1) + (p2·x2 + p3·x3)), 8 rows × up to 1024 columns per task
        int d = b.m.d();
        int dc = Dsv4Build.tileOf(d, 1024);
        KernelRef mixX = b.aiv("mix_x", kb -> {
            KTensor x = kb.input("x", FP32, 2);
            KTensor pv = kb.input("pre", FP32, 2);
            KTensor o = kb.output("x_mixed", BF16, 2);
            KScalar c0 = kb.scalar("c0");
            KTile[] xs = new KTile[hc];
            KTile[] pc = new KTile[hc];
            for (int h = 0; h < hc; h++) {
                xs[h] = kb.tile("x" + h, FP32, 8, dc);
                pc[h] = kb.tile("p" + h, FP32, 8, 1);
                kb.load(xs[h], x, 0, c0.plus(h * (long) d)).load(pc[h], pv, 0, h)
                        .rowBroadcast(Fn.Binary.MUL, xs[h], xs[h], pc[h]);
            }
            kb.add(xs[0], xs[0], xs[1]).add(xs[2], xs[2], xs[3]).add(xs[0], xs[0], xs[2]).store(xs[0], o, 0, 0);
        });
        b.grid(t / 8, d / dc, mixX, (i, j) -> Dsv4Build.args(in(xHc.block(8, k).at(i, 0)),
                in(preVal.at(i.times(8), 0).size(8, hc)),
                outExisting(xMixed.at(i.times(8), j.times(dc)).size(8, dc)), scalar(j.times(dc))));
        return new Out(xMixed, post, comb);
    }

    /** Step 9: x_normed = bf16(x · rsqrt(mean(x²) + eps) · w); 8 rows × one quarter of D per task. */
    static TensorVar rmsNorm(Dsv4Build b, TensorVar xMixed, TensorVar normW) {
        int t = b.t;
        int d = b.m.d();
        int dq = d / 4;
        int dc = Dsv4Build.tileOf(d, 1024);
        TensorVar xNormed = b.alloc("x_normed");
        KernelRef k = b.aiv("rms_norm", kb -> {
            KTensor x = kb.input("x", BF16, 2);
            KTensor w = kb.input("w", BF16, 2);
            KTensor o = kb.output("x_normed", BF16, 2);
            KScalar c0 = kb.scalar("c0");
            KTile xs = kb.tile("xs", FP32, 8, dc);
            KTile part = kb.tile("part", FP32, 8, 1);
            KTile acc = kb.tile("acc", FP32, 8, 1);
            KTile y = kb.tile("y", FP32, 8, dq);
            KTile wr = kb.tile("wr", FP32, 1, dq);
            kb.fill(acc, 0);
            kb.forRange("c", 0, d, dc, c -> kb.load(xs, x, 0, c).mul(xs, xs, xs).rowSum(part, xs).add(acc, acc, part));
            kb.muls(acc, acc, 1.0 / d).adds(acc, acc, b.m.eps()).unary(Fn.Unary.RSQRT, acc, acc);
            kb.load(y, x, 0, c0).rowBroadcast(Fn.Binary.MUL, y, y, acc).load(wr, w, 0, c0)
                    .colBroadcast(Fn.Binary.MUL, y, y, wr).store(y, o, 0, 0);
        });
        b.grid(SubmitOptions.labelled(RMS_NORM), t / 8, 4, k, (i, q) -> Dsv4Build.args(in(xMixed.block(8, d).at(i, 0)),
                in(normW.reshape(1, d)), outExisting(xNormed.at(i.times(8), q.times(dq)).size(8, dq)),
                scalar(q.times(dq))));
        return xNormed;
    }

    /**
     * {@code dst[R×1] = value of tensor element (0, col)} on every row: a 1×1 load added to a zeroed column (exact),
     * since scalar registers only hold task parameters. Vector ops only: the vector kernels calling this cannot
     * use the cube (a matmul here made them unrunnable on an AIV).
     */
    static void broadcastScalar(KernelBuilder kb, KTile dst, KTensor src, int col, String tag) {
        KTile v = kb.tile("v11_" + tag, FP32, 1, 1);
        kb.fill(dst, 0).load(v, src, 0, col).colBroadcast(Fn.Binary.ADD, dst, dst, v);
    }

    /** c_i /= (Σ_i c_i + eps) column-wise, summing i in order. */
    private static void normaliseColumns(KernelBuilder kb, KTile[] c, KTile cs, float eps) {
        kb.add(cs, c[0], c[1]);
        for (int i = 2; i < c.length; i++) {
            kb.add(cs, cs, c[i]);
        }
        kb.adds(cs, cs, eps);
        for (KTile ci : c) {
            kb.div(ci, ci, cs);
        }
    }
}
