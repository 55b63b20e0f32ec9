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
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.isa.op.Fn;
import dev.jpto.models.dsv4.Dsv4Numerics;
import dev.jpto.models.dsv4.Dsv4Preset;

/**
 * prefill_sparse_attn up to o_packed (decomposition §2.4 steps 22–27): gather the keys of each token into three
 * 128-slot tiles, the additive mask, per-tile attention partials, the online merge with the sink, inverse RoPE.
 */
final class SparseAttnKernels {
    static final int TILE = Dsv4Preset.ATTN_TILE;
    /** Key lanes per qk_pv matmul operand: a bf16 [128, 256] key chunk fills L0B's 64 KiB. */
    private static final int KEY_CHUNK = 256;

    /** Labels of the tasks the output projection's manual scope waits for (explicit dependencies). */
    static final String MERGE_NORM = "merge_norm";
    static final String ROPE = "rope";

    private SparseAttnKernels() {
    }

    /** Key sources: window indices into kv_cache, compressed indices through cmp_table into cmp_kv. */
    record Keys(TensorVar kvCache2d, TensorVar swa, TensorVar cmpKv2d, TensorVar cmpTable, TensorVar cmpIdx) {
    }

    /** Steps 22–27; returns o_packed. {@code q} is [T, H, HD]. */
    static TensorVar attend(Dsv4Build b, TensorVar q, Keys keys, TensorVar cosT, TensorVar sinT, TensorVar swap,
                            TensorVar sink) {
        int t = b.t;
        int h = b.m.h();
        int hd = b.m.headDim();
        int nope = b.m.nopeDim();
        int r = b.m.ropeDim();
        int pad = b.preset.sparsePad();
        int tiles = b.preset.attnBlocks();
        TensorVar cosIl = b.alloc("rope_cos_il");
        TensorVar sinInv = b.alloc("rope_sin_signed");
        // 22: interleaved cos / inverse-signed sin for the query positions
        KernelRef cs = QkvKernels.ropePrepare(b, "rope_cs", true);
        b.grid(t / 8, cs, i -> Dsv4Build.args(in(cosT.block(8, r).at(i, 0)), in(sinT.block(8, r).at(i, 0)),
                outExisting(cosIl.block(8, r).at(i, 0)), outExisting(sinInv.block(8, r).at(i, 0))));

        // 23: gather the keys, 4 tokens × one 128-slot tile per task; zeros for invalid slots
        TensorVar sparseKv = b.alloc("sparse_kv");
        long tableLen = keys.cmpTable().shape()[1];
        KernelRef gWin = gather(b, "gather_kv", false, tableLen);
        KernelRef gCmp = gather(b, "gather_kv_cmp", true, tableLen);
        int cmpCols = (int) keys.cmpIdx().shape()[1];
        // the original's one grid of (T/4)·3 blocks is two here: the window tile and the compressed tiles
        b.grid(t / 4, gWin, i -> Dsv4Build.args(in(keys.swa().at(i.times(4), 0).size(4, TILE)),
                in(keys.kvCache2d()), in(keys.cmpTable()),
                outExisting(sparseKv.at(i.times(4L * pad), 0).size(4L * pad, hd)), scalar(0)));
        b.grid(t / 4, tiles - 1, gCmp, (i, j) -> Dsv4Build.args(
                in(keys.cmpIdx().at(i.times(4), 0).size(4, cmpCols)), in(keys.cmpKv2d()), in(keys.cmpTable()),
                outExisting(sparseKv.at(i.times(4L * pad), 0).size(4L * pad, hd)), scalar(j.plus(1))));

        // 24: additive mask, 16 rows per task: 0 for a valid slot, −3.4e38 otherwise
        TensorVar bias = b.alloc("sparse_bias");
        KernelRef bWin = bias(b, "build_bias", false, tableLen);
        KernelRef bCmp = bias(b, "build_bias_cmp", true, tableLen);
        b.grid(t / 16, bWin, i -> Dsv4Build.args(in(keys.swa().at(i.times(16), 0).size(16, TILE)),
                in(keys.cmpTable()), outExisting(bias.at(i.times(16), 0).size(16, pad)), scalar(0)));
        b.grid(t / 16, tiles - 1, bCmp, (i, j) -> Dsv4Build.args(
                in(keys.cmpIdx().at(i.times(16), 0).size(16, cmpCols)), in(keys.cmpTable()),
                outExisting(bias.at(i.times(16), 0).size(16, pad)), scalar(j.plus(1))));

        // 25: per token, per tile, per head batch: m, l and O = bf16(exp(S − m))·V
        TensorVar mi = b.alloc("sparse_blk_mi");
        TensorVar li = b.alloc("sparse_blk_li");
        TensorVar oi = b.alloc("sparse_blk_oi");
        int hb = Math.min(h, 32);
        double scale = b.m.softmaxScale();
        KernelRef qk = b.aic("qk_pv", kb -> qkPvBody(kb, tiles, h, hb, hd, scale));
        long blk = (long) tiles * h;
        TensorVar q2 = q.reshape((long) t * h, hd);
        b.grid(t, qk, tok -> Dsv4Build.args(in(q2.block(h, hd).at(tok, 0)),
                in(sparseKv.block(pad, hd).at(tok, 0)), in(bias.block(1, pad).at(tok, 0)),
                outExisting(mi.block(blk, 1).at(tok, 0)), outExisting(li.block(blk, 1).at(tok, 0)),
                outExisting(oi.block(blk, hd).at(tok, 0))));

        // 26: merge the tiles online, add the sink to the denominator, normalise; split nope/rope lanes
        TensorVar stage = b.alloc("attn_rope_stage");
        TensorVar oPacked = b.alloc("o_packed");
        int hpg = b.m.headsPerGroup();
        int groups = b.m.oGroups();
        // one block per token (the original's grid T); the token's heads of group g are rows of o_packed seen
        // as [G, T, hpg, HD] at (g, tok)
        KernelRef merge = b.aiv("merge_norm", kb -> mergeBody(b, kb, tiles, hpg, nope, r, groups));
        TensorVar o4 = oPacked.reshape(groups, t, hpg, hd);
        TensorVar sinkCol = sink.reshape(h, 1);
        Affine tok = Orch.BLOCK_IDX;
        b.o.submit(SubmitOptions.blocks(t).withLabel(MERGE_NORM), merge, in(mi.block(blk, 1).at(tok, 0)),
                in(li.block(blk, 1).at(tok, 0)), in(oi.block(blk, hd).at(tok, 0)), in(sinkCol),
                outExisting(o4.at(0, tok, 0, 0).size(groups, 1, hpg, hd)), outExisting(stage.block(h, r).at(tok, 0)));

        // 27: inverse RoPE of the rope lanes at the query's position, bf16 into o_packed; 4 heads × 64 rows
        int hpt = Dsv4Build.tileOf(hpg, 4);
        int rowsPer = Math.min(64, t);
        KernelRef rope = b.aiv("rope", kb -> {
            KTensor st = kb.input("stage", FP32, 2);
            KTensor ci = kb.input("cos_il", FP32, 2);
            KTensor si = kb.input("sin_signed", FP32, 2);
            KTensor sw = kb.input("swap_idx", INT32, 2);
            KTensor o = kb.output("o_packed", BF16, 2);
            KScalar h0 = kb.scalar("h0");
            KTile swapCol = Tiles.swapColumn(kb, sw, r);
            KTile x = kb.tile("x", FP32, 8, r);
            KTile c = kb.tile("c", FP32, 8, r);
            KTile s = kb.tile("s", FP32, 8, r);
            Tiles.RopeScratch rs = Tiles.RopeScratch.of(kb, 8, r);
            kb.forRange("hh", 0, hpt, hh -> kb.forRange("m", 0, rowsPer, 8, m -> {
                kb.load(x, st, m, hh.times(r)).load(c, ci, m, 0).load(s, si, m, 0);
                if (!b.faults.skipInverseRope()) {
                    Tiles.rope(kb, x, c, s, swapCol, rs);
                }
                kb.store(x, o, m, hh.plus(h0).times(hd).plus(nope));
            }));
        });
        TensorVar stageRows = stage.reshape(t, (long) h * r);
        TensorVar oCols = oPacked.reshape((long) groups * t, (long) hpg * hd);
        // one grid over (g, sub, tq), row-major
        int tqs = t / rowsPer;
        Affine g = Orch.blockDiv((long) (hpg / hpt) * tqs);
        Affine sub = Orch.blockDivMod(tqs, hpg / hpt);
        Affine tq = Orch.blockMod(tqs);
        b.o.submit(SubmitOptions.blocks(groups * (hpg / hpt) * tqs).withLabel(ROPE), rope,
                in(stageRows.at(tq.times(rowsPer), g.times((long) hpg * r).plus(sub.times((long) hpt * r)))
                        .size(rowsPer, (long) hpt * r)),
                in(cosIl.at(tq.times(rowsPer), 0).size(rowsPer, r)),
                in(sinInv.at(tq.times(rowsPer), 0).size(rowsPer, r)), in(swap.at(0, 0).size(1, r)),
                outExisting(oCols.at(g.times(t).plus(tq.times(rowsPer)), 0).size(rowsPer, (long) hpg * hd)),
                scalar(sub.times(hpt)));
        return oPacked;
    }

    /**
     * qk_pv of one token: per key tile j and batch of hb heads, {@code S = q·ktᵀ·scale + bias}, m, l and
     * {@code O = bf16(exp(S − m))·kt}. The keys are split into column chunks of at most {@value #KEY_CHUNK}
     * lanes so each matmul operand fits L0B: S sums the chunks' partial products (split K), O is computed a
     * chunk of columns at a time (split N, exact).
     */
    private static void qkPvBody(KernelBuilder kb, int tiles, int h, int hb, int hd, double scale) {
        int kc = Dsv4Build.tileOf(hd, KEY_CHUNK);
        int chunks = hd / kc;
        KTensor qT = kb.input("q", BF16, 2);
        KTensor kvT = kb.input("sparse_kv", BF16, 2);
        KTensor bT = kb.input("bias", FP32, 2);
        KTensor mo = kb.output("mi", FP32, 2);
        KTensor lo = kb.output("li", FP32, 2);
        KTensor oo = kb.output("oi", FP32, 2);
        KTile[] qt = new KTile[chunks];
        KTile[] kt = new KTile[chunks];
        for (int c = 0; c < chunks; c++) {
            qt[c] = kb.tile("qt" + c, BF16, hb, kc);
            kt[c] = kb.tile("kt" + c, BF16, TILE, kc);
        }
        KTile s = kb.tile("s", FP32, hb, TILE);
        KTile e = kb.tile("e", BF16, hb, TILE);
        KTile br = kb.tile("br", FP32, 1, TILE);
        KTile mx = kb.tile("mx", FP32, hb, 1);
        KTile sm = kb.tile("sm", FP32, hb, 1);
        KTile ot = kb.tile("ot", FP32, hb, kc);
        kb.forRange("j", 0, tiles, j -> {
            for (int c = 0; c < chunks; c++) {
                kb.load(kt[c], kvT, j.times(TILE), c * kc);
            }
            kb.load(br, bT, 0, j.times(TILE));
            kb.forRange("h0", 0, h, hb, h0 -> {
                var row = j.times(h).plus(h0);
                for (int c = 0; c < chunks; c++) {
                    kb.load(qt[c], qT, h0, c * kc).matmulTransB(s, qt[c], kt[c], c > 0);
                }
                kb.muls(s, s, scale).colBroadcast(Fn.Binary.ADD, s, s, br).rowMax(mx, s)
                        .rowBroadcast(Fn.Binary.SUB, s, s, mx).exp(s, s).rowSum(sm, s).cast(e, s)
                        .store(mx, mo, row, 0).store(sm, lo, row, 0);
                for (int c = 0; c < chunks; c++) {
                    kb.matmul(ot, e, kt[c]).store(ot, oo, row, c * kc);
                }
            });
        });
    }

    private static void mergeBody(Dsv4Build b, KernelBuilder kb, int tiles, int mb, int nope, int r, int groups) {
        int h = b.m.h();
        KTensor mT = kb.input("mi", FP32, 2);
        KTensor lT = kb.input("li", FP32, 2);
        KTensor oT = kb.input("oi", FP32, 2);
        KTensor skT = kb.input("sink", FP32, 2);
        KTensor op = kb.output("o_packed", BF16, 4);
        KTensor st = kb.output("stage", FP32, 2);
        KTile m = kb.tile("m", FP32, mb, 1);
        KTile l = kb.tile("l", FP32, mb, 1);
        KTile mj = kb.tile("mj", FP32, mb, 1);
        KTile lj = kb.tile("lj", FP32, mb, 1);
        KTile mn = kb.tile("mn", FP32, mb, 1);
        KTile al = kb.tile("al", FP32, mb, 1);
        KTile be = kb.tile("be", FP32, mb, 1);
        KTile on = kb.tile("on", FP32, mb, nope);
        KTile orp = kb.tile("or", FP32, mb, r);
        KTile jn = kb.tile("jn", FP32, mb, nope);
        KTile jr = kb.tile("jr", FP32, mb, r);
        kb.forRange("g", 0, groups, g -> {
            var h0 = g.times(mb);
            kb.load(m, mT, h0, 0).load(l, lT, h0, 0).load(on, oT, h0, 0).load(orp, oT, h0, nope);
            for (int j = 1; j < tiles; j++) {
                long row = (long) j * h;
                kb.load(mj, mT, h0.plus(row), 0).load(lj, lT, h0.plus(row), 0).load(jn, oT, h0.plus(row), 0)
                        .load(jr, oT, h0.plus(row), nope)
                        .max(mn, m, mj).sub(al, m, mn).exp(al, al).sub(be, mj, mn).exp(be, be)
                        .mul(l, al, l).mul(lj, be, lj).add(l, l, lj)
                        .rowBroadcast(Fn.Binary.MUL, on, on, al).rowBroadcast(Fn.Binary.MUL, jn, jn, be)
                        .add(on, on, jn).rowBroadcast(Fn.Binary.MUL, orp, orp, al)
                        .rowBroadcast(Fn.Binary.MUL, jr, jr, be).add(orp, orp, jr).copy(m, mn);
            }
            if (!b.faults.dropSink()) {
                kb.load(mj, skT, h0, 0).sub(mj, mj, m).exp(mj, mj).add(l, l, mj);
            }
            kb.rowBroadcast(Fn.Binary.DIV, on, on, l).rowBroadcast(Fn.Binary.DIV, orp, orp, l);
            if (b.faults.attentionScale() != 1.0) {
                kb.muls(on, on, b.faults.attentionScale()).muls(orp, orp, b.faults.attentionScale());
            }
            kb.store(on, op, g, 0, 0, 0).store(orp, st, h0, 0);
        });
    }

    /** Gather kernel: one 128-slot tile (window, or compressed tile {@code j}) of 4 tokens; invalid slots → 0. */
    private static KernelRef gather(Dsv4Build b, String name, boolean cmp, long tableLen) {
        int hd = b.m.headDim();
        int pad = b.preset.sparsePad();
        int bs = b.preset.pools().blockSize();
        return b.aiv(name, kb -> {
            KTensor idxT = kb.input(cmp ? "cmp_indices" : "swa_indices", INT32, 2);
            KTensor src = kb.input(cmp ? "cmp_kv" : "kv_cache", BF16, 2);
            KTensor tbT = kb.input("cmp_table", INT32, 2);
            KTensor o = kb.output("sparse_kv", BF16, 2);
            KScalar j = kb.scalar("tile");
            Slots s = Slots.declare(kb, tbT, cmp, bs, tableLen);
            // a column chunk of the 128 rows at a time: whole [128, hd] tiles would not fit the UB
            int kc = Dsv4Build.tileOf(hd, 128);
            KTile kt = kb.tile("kt", BF16, TILE, kc);
            KTile wide = kb.tile("wide", INT32, TILE, kc);
            KTile mh = kb.tile("mh", BOOL, TILE, kc);
            KTile zero = kb.tile("zero", BF16, TILE, kc);
            kb.fill(zero, 0);
            kb.forRange("tk", 0, 4, tk -> {
                s.rowSlots(kb, idxT, tk, cmp ? j.plus(-1).times(TILE) : j);
                Tiles.columnMask(kb, mh, s.validCol(), wide);
                kb.forRange("c0", 0, hd, kc, c0 -> kb.loadRows(kt, src, s.safeCol(), 0, c0).select(kt, mh, kt, zero)
                        .store(kt, o, tk.times(pad).plus(j.times(TILE)), c0));
            });
        });
    }

    /** Bias kernel: 16 rows of one tile's 128 columns. */
    private static KernelRef bias(Dsv4Build b, String name, boolean cmp, long tableLen) {
        int bs = b.preset.pools().blockSize();
        return b.aiv(name, kb -> {
            KTensor idxT = kb.input(cmp ? "cmp_indices" : "swa_indices", INT32, 2);
            KTensor tbT = kb.input("cmp_table", INT32, 2);
            KTensor o = kb.output("bias", FP32, 2);
            KScalar j = kb.scalar("tile");
            Slots s = Slots.declare(kb, tbT, cmp, bs, tableLen);
            KTile vr = kb.tile("vr", INT32, 1, TILE);
            KTile mk = kb.tile("mk", BOOL, 1, TILE);
            KTile zr = kb.tile("zr", FP32, 1, TILE);
            KTile nr = kb.tile("nr", FP32, 1, TILE);
            KTile br = kb.tile("br", FP32, 1, TILE);
            kb.fill(zr, 0).fill(nr, Dsv4Numerics.NEG_INF);
            kb.forRange("rr", 0, 16, rr -> {
                s.rowSlots(kb, idxT, rr, cmp ? j.plus(-1).times(TILE) : j);
                kb.transpose(vr, s.validCol()).compareScalar(Fn.Compare.GT, mk, vr, 0).select(br, mk, zr, nr)
                        .store(br, o, rr, j.times(TILE));
            });
        });
    }

    /**
     * Per-row slot resolution shared by gather and bias: for one token row, the 128 slots of a tile as a column
     * of source rows (clamped to 0 when invalid) and a validity column (1/0). Window slots are already cache rows;
     * compressed slots go through the block table ({@code blk·BS + slot mod BS}, valid when slot ≥ 0 and blk ≥ 0).
     */
    private record Slots(boolean cmp, int bs, KTile row, KTile col, KTile safe, KTile valid, KTile blk, KTile tmp,
                         KTile tbl, KTile g, KTile vm, long tableLen) {
        static Slots declare(KernelBuilder kb, KTensor table, boolean cmp, int bs, long tableLen) {
            KTile row = kb.tile("slot_row", INT32, 1, TILE);
            KTile col = kb.tile("slot_col", INT32, TILE, 1);
            KTile safe = kb.tile("safe_col", INT32, TILE, 1);
            KTile valid = kb.tile("valid_col", INT32, TILE, 1);
            KTile blk = kb.tile("blk_col", INT32, TILE, 1);
            KTile tmp = kb.tile("tmp_col", INT32, TILE, 1);
            KTile vm = kb.tile("vm_col", BOOL, TILE, 1);
            KTile g = kb.tile("g_col", INT32, TILE, 1);
            KTile tbl = null;
            if (cmp) {
                KTile tbr = kb.tile("table_row", INT32, 1, (int) tableLen);
                tbl = kb.tile("table_col", INT32, (int) tableLen, 1);
                kb.load(tbr, table, 0, 0).transpose(tbl, tbr);
            }
            return new Slots(cmp, bs, row, col, safe, valid, blk, tmp, tbl, g, vm, tableLen);
        }

        KTile safeCol() {
            return safe;
        }

        KTile validCol() {
            return valid;
        }

        /** Fills safe/valid for row {@code r} of the index tensor at column {@code c0}. */
        void rowSlots(KernelBuilder kb, KTensor idx, Object r, Object c0) {
            kb.load(row, idx, r, c0).transpose(col, row).compareScalar(Fn.Compare.GE, vm, col, 0)
                    .fill(valid, 0).fill(tmp, 1).select(valid, vm, tmp, valid).binaryScalar(Fn.Binary.MAX, safe, col,
                            0);
            if (!cmp) {
                return;
            }
            // blk = table[slot / BS]; row = blk·BS + slot mod BS; valid also needs blk ≥ 0
            kb.binaryScalar(Fn.Binary.DIV, blk, safe, bs).binaryScalar(Fn.Binary.MIN, blk, blk, tableLen - 1)
                    .muls(tmp, blk, bs).sub(safe, safe, tmp).gatherRows(g, tbl, blk)
                    .compareScalar(Fn.Compare.GE, vm, g, 0).fill(tmp, 0).select(valid, vm, valid, tmp)
                    .binaryScalar(Fn.Binary.MAX, g, g, 0).muls(g, g, bs).add(safe, g, safe);
        }
    }
}
