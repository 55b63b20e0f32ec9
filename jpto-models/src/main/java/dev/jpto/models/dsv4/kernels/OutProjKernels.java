package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;
import static dev.jpto.isa.DType.INT8;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.isa.op.Fn;
import java.util.ArrayList;
import java.util.List;

/**
 * The grouped low-rank output projection (decomposition §2.4 steps 28–31) and hc_post (32–33): o_packed →
 * attn_out → x_out.
 */
final class OutProjKernels {
    private OutProjKernels() {
    }

    /** Steps 28–31: proj_a / quant / proj_b in a manual scope (depth 2), then proj_b_act at depth 1. */
    static void project(Dsv4Build b, TensorVar oPacked, TensorVar woA, TensorVar woB, TensorVar woBScale,
                        TensorVar attnOut) {
        int t = b.t;
        int g = b.m.oGroups();
        int ol = b.m.oLora();
        int gin = b.m.oGroupIn();
        int d = b.m.d();
        TensorVar oR = b.alloc("o_r");
        TensorVar oR8 = b.alloc("o_r_i8");
        TensorVar dq = b.alloc("act_scale_dq");
        TensorVar partials = b.alloc("partials");
        int nca = Dsv4Build.tileOf(ol, 128);
        int kca = Dsv4Build.tileOf(gin, 256);
        KernelRef projA = b.aic("proj_a_mm", kb -> {
            KTensor a = kb.input("o_packed", BF16, 2);
            KTensor w = kb.input("wo_a", BF16, 2);
            KTensor o = kb.output("o_r", FP32, 2);
            KTile ta = kb.tile("ta", BF16, 16, kca);
            KTile tw = kb.tile("tw", BF16, nca, kca);
            KTile tc = kb.tile("tc", FP32, 16, nca);
            kb.forRange("m", 0, t, 16, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, gin, kca, k -> kb.load(ta, a, mi, k).load(tw, w, 0, k).matmulTransB(tc, ta, tw,
                        true));
                kb.store(tc, o, mi, 0);
            });
        });
        int qr = Math.min(32, t);
        KernelRef quant = b.aiv("quant", kb -> {
            KTensor x = kb.input("o_r", FP32, 2);
            KTensor oq = kb.output("o_r_i8", INT8, 2);
            KTensor od = kb.output("act_scale_dq", FP32, 2);
            KTile xs = kb.tile("x", FP32, 8, ol);
            KTile y = kb.tile("y", FP32, 8, ol);
            KTile amax = kb.tile("amax", FP32, 8, 1);
            KTile sq = kb.tile("sq", FP32, 8, 1);
            KTile num = kb.tile("num", FP32, 8, 1);
            KTile row = kb.tile("row", FP32, 1, 8);
            KTile q8 = kb.tile("q8", INT8, 8, ol);
            kb.forRange("m", 0, qr, 8, mi -> {
                kb.load(xs, x, mi, 0);
                Tiles.quantRows(kb, xs, y, amax, sq, num, q8);
                kb.store(q8, oq, mi, 0).fill(num, 1).div(num, num, sq).transpose(row, num).store(row, od, 0, mi);
            });
        });
        int ncb = Dsv4Build.tileOf(d, 1024);
        int nfrag = Dsv4Build.tileOf(ncb, 256);
        int kcb = Dsv4Build.tileOf(ol, 256);
        KernelRef projB = b.aic("proj_b_mm", kb -> {
            KTensor a = kb.input("o_r_i8", INT8, 2);
            KTensor w = kb.input("wo_b", INT8, 2);
            KTensor o = kb.output("partials", INT32, 2);
            KTile ta = kb.tile("ta", INT8, 16, kcb);
            KTile tw = kb.tile("tw", INT8, nfrag, kcb);
            KTile tc = kb.tile("tc", INT32, 16, nfrag);
            kb.forRange("n", 0, ncb, nfrag, n -> kb.forRange("m", 0, t, 16, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, ol, kcb, k -> kb.load(ta, a, mi, k).load(tw, w, n, k).matmulTransB(tc, ta, tw,
                        true));
                kb.store(tc, o, mi, n);
            }));
        });
        TensorVar woA2 = woA.reshape((long) g * ol, gin);
        // the original's manual scope: no TensorMap dependencies, only the explicit ones (spec §4.1): proj_a after
        // merge_norm and rope, quant[g] after proj_a[g, *], proj_b[g, *] after quant[g, *], proj_b_act after every
        // proj_b. Labels name single tasks, so the group loop is unrolled here.
        List<String> projBs = new ArrayList<>();
        b.o.manualScope(() -> {
            for (int gi = 0; gi < g; gi++) {
                List<String> as = new ArrayList<>();
                for (int n = 0; n < ol / nca; n++) {
                    as.add("proj_a_g" + gi + "_n" + n);
                    b.o.submit(SubmitOptions.labelled(as.getLast()).withAfter(SparseAttnKernels.MERGE_NORM,
                                    SparseAttnKernels.ROPE), projA, in(oPacked.at(gi * t, 0).size(t, gin)),
                            in(woA2.at(gi * ol + n * nca, 0).size(nca, gin)),
                            outExisting(oR.at(0, gi * ol + n * nca).size(t, nca)));
                }
                List<String> qs = new ArrayList<>();
                for (int c = 0; c < t / qr; c++) {
                    qs.add("quant_g" + gi + "_c" + c);
                    b.o.submit(SubmitOptions.labelled(qs.getLast()).withAfter(as.toArray(String[]::new)), quant,
                            in(oR.at(c * qr, gi * ol).size(qr, ol)), outExisting(oR8.at(c * qr, gi * ol).size(qr, ol)),
                            outExisting(dq.at(gi, c * qr).size(1, qr)));
                }
                for (int n = 0; n < d / ncb; n++) {
                    projBs.add("proj_b_g" + gi + "_n" + n);
                    b.o.submit(SubmitOptions.labelled(projBs.getLast()).withAfter(qs.toArray(String[]::new)), projB,
                            in(oR8.at(0, gi * ol).size(t, ol)), in(woB.at(n * ncb, gi * ol).size(ncb, ol)),
                            outExisting(partials.at(0, gi * d + n * ncb).size(t, ncb)));
                }
            }
        });

        // 31: attn_out = bf16(Σ_g float(p_g)·dq[g, t] · wo_b_scale), 32 rows × 512 columns per task
        int nc = Dsv4Build.tileOf(d, 512);
        int rows = Math.min(32, t);
        KernelRef act = b.aiv("proj_b_act", kb -> {
            KTensor p = kb.input("partials", INT32, 2);
            KTensor dqT = kb.input("act_scale_dq", FP32, 2);
            KTensor ws = kb.input("wo_b_scale", FP32, 2);
            KTensor o = kb.output("attn_out", BF16, 2);
            KTile pi = kb.tile("pi", INT32, 16, nc);
            KTile pf = kb.tile("pf", FP32, 16, nc);
            KTile acc = kb.tile("acc", FP32, 16, nc);
            KTile dr = kb.tile("dr", FP32, 1, 16);
            KTile dc = kb.tile("dc", FP32, 16, 1);
            KTile wr = kb.tile("wr", FP32, 1, nc);
            kb.load(wr, ws, 0, 0);
            kb.forRange("m", 0, rows, 16, mi -> {
                kb.fill(acc, 0);
                kb.forRange("gi", 0, g, gi -> kb.load(pi, p, mi, gi.times(d)).cast(pf, pi).load(dr, dqT, gi, mi)
                        .transpose(dc, dr).rowBroadcast(Fn.Binary.MUL, pf, pf, dc).add(acc, acc, pf));
                kb.colBroadcast(Fn.Binary.MUL, acc, acc, wr).store(acc, o, mi, 0);
            });
        });
        TensorVar pView = partials;
        Affine c = Orch.blockDiv(t / rows);
        Affine rr = Orch.blockMod(t / rows);
        b.o.submit(SubmitOptions.blocks(d / nc * (t / rows)).withAfter(projBs.toArray(String[]::new)), act,
                in(pView.at(rr.times(rows), c.times(nc)).size(rows, (long) (g - 1) * d + nc)),
                in(dq.at(0, rr.times(rows)).size(g, rows)), in(woBScale.reshape(1, d).at(0, c.times(nc)).size(1, nc)),
                outExisting(attnOut.at(rr.times(rows), c.times(nc)).size(rows, nc)));
    }

    /**
     * Step 32 (in the {@code if num_tokens > 0} scope, depth 2): x_out[t, o, :] = attn_out·post[t, o] +
     * Σ_i x_hc[t, i, :]·comb[t, 4i + o], four rows × one output stream per task; step 33 zero-fills padding rows.
     */
    static void hcPost(Dsv4Build b, TensorVar attnOut, TensorVar xHc, TensorVar post, TensorVar comb, TensorVar xOut) {
        int t = b.t;
        int hc = b.m.hcMult();
        int d = b.m.d();
        int nt = b.preset.numTokens();
        KernelRef k = b.aiv("hc_post_prefill", kb -> {
            KTensor a = kb.input("attn_out", BF16, 2);
            KTensor x = kb.input("x_hc", FP32, 2);
            KTensor pt = kb.input("post", FP32, 2);
            KTensor cb = kb.input("comb", FP32, 2);
            KTensor o = kb.output("x_out", FP32, 2);
            KScalar oc = kb.scalar("o");
            // a column chunk at a time: two fp32 [4, d] rows would not fit the UB at d = 7168
            int dc = Dsv4Build.tileOf(d, 1024);
            KTile acc = kb.tile("acc", FP32, 4, dc);
            KTile xs = kb.tile("xs", FP32, 4, dc);
            KTile postCol = kb.tile("post_col", FP32, 4, 1);
            KTile[] combCol = new KTile[hc];
            kb.load(postCol, pt, 0, oc);
            for (int i = 0; i < hc; i++) {
                combCol[i] = kb.tile("comb_col" + i, FP32, 4, 1);
                kb.load(combCol[i], cb, 0, oc.plus((long) hc * i));
            }
            kb.forRange("c0", 0, d, dc, c0 -> {
                kb.load(acc, a, 0, c0).rowBroadcast(Fn.Binary.MUL, acc, acc, postCol);
                for (int i = 0; i < hc; i++) {
                    kb.load(xs, x, 0, c0.plus((long) i * d)).rowBroadcast(Fn.Binary.MUL, xs, xs, combCol[i])
                            .add(acc, acc, xs);
                }
                kb.store(acc, o, 0, c0);
            });
        });
        TensorVar xo2 = xOut.reshape(t, (long) hc * d);
        TensorVar xh2 = xHc.reshape(t, (long) hc * d);
        if (nt > 0) {
            if (nt % 4 != 0) {
                throw new IllegalArgumentException("hc_post_prefill tiles 4 rows: num_tokens=" + nt
                        + " must be a multiple of 4");
            }
            b.o.scope(() -> b.grid(nt / 4, hc, k, (i, oc) -> Dsv4Build.args(
                    in(attnOut.at(i.times(4), 0).size(4, d)), in(xh2.at(i.times(4), 0).size(4, (long) hc * d)),
                    in(post.at(i.times(4), 0).size(4, hc)), in(comb.at(i.times(4), 0).size(4, (long) hc * hc)),
                    outExisting(xo2.at(i.times(4), oc.times(d)).size(4, d)), scalar(oc))));
        }
        if (nt < t) {
            KernelRef pad = b.aiv("hc_post_inactive_pad", kb -> {
                KTensor o = kb.output("x_out", FP32, 2);
                KTile z = kb.tile("z", FP32, 1, hc * d);
                kb.fill(z, 0).forRange("r", 0, t - nt, r -> kb.store(z, o, r, 0));
            });
            b.o.scope(() -> b.submit(pad, outExisting(xo2.at(nt, 0).size(t - nt, (long) hc * d))));
        }
    }
}
