package dev.jpto.lib.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.INT32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.op.Fn;

/** The window index list (spec §3.6) and the SWA program's empty compressed-index inputs (§3.1 S1–S3). */
final class SwaIndices {
    private SwaIndices() {
    }

    /**
     * One single-block task: row r of {@code swa} lists the cache rows of keys {@code pos-n+1 .. pos}
     * ({@code n = min(WIN, pos+1)}), oldest first, through the block table; −1 for unused columns, unmapped
     * blocks and padding rows.
     */
    static void windowIndices(Dsv4Build b, String name, TensorVar pos, TensorVar table, TensorVar swa) {
        int t = b.t;
        int win = b.m.win();
        int bs = b.preset.pools().blockSize();
        int nt = b.preset.numTokens();
        long nb = table.shape()[1];
        KernelRef k = b.aiv(name, kb -> {
            KTensor p = kb.input("pos", INT32, 2);
            KTensor tb = kb.input("block_table", INT32, 2);
            KTensor o = kb.output("swa_indices", INT32, 2);
            KTile pt = kb.tile("p", INT32, 1, 1);
            KTile n = kb.tile("n", INT32, 1, 1);
            KTile f = kb.tile("f", INT32, 1, 1);
            KTile kk = kb.tile("k", INT32, 1, win);
            KTile key = kb.tile("key", INT32, 1, win);
            KTile blk = kb.tile("blk", INT32, 1, win);
            KTile off = kb.tile("off", INT32, 1, win);
            KTile tmp = kb.tile("tmp", INT32, 1, win);
            KTile neg = kb.tile("neg", INT32, 1, win);
            KTile vm = kb.tile("vm", BOOL, 1, win);
            KTile blkT = kb.tile("blk_t", INT32, win, 1);
            KTile g = kb.tile("g", INT32, win, 1);
            KTile gt = kb.tile("gt", INT32, 1, win);
            KTile tbl = kb.tile("tbl", INT32, (int) nb, 1);
            KTile tbr = kb.tile("tbr", INT32, 1, (int) nb);
            kb.iota(kk, Fn.Axis.COLS, 0).fill(neg, -1).load(tbr, tb, 0, 0).transpose(tbl, tbr);
            kb.forRange("r", 0, nt, rr -> {
                kb.load(pt, p, rr, 0).adds(n, pt, 1).binaryScalar(Fn.Binary.MIN, n, n, win).adds(f, pt, 1)
                        .sub(f, f, n).rowBroadcast(Fn.Binary.ADD, key, kk, f)
                        .binaryScalar(Fn.Binary.MAX, key, key, 0).binaryScalar(Fn.Binary.DIV, blk, key, bs)
                        .binaryScalar(Fn.Binary.MIN, blk, blk, nb - 1).muls(off, blk, bs).sub(off, key, off)
                        .transpose(blkT, blk).gatherRows(g, tbl, blkT).transpose(gt, g)
                        .muls(tmp, gt, bs).add(off, tmp, off)
                        .rowBroadcast(Fn.Binary.SUB, tmp, kk, n).compareScalar(Fn.Compare.LT, vm, tmp, 0)
                        .select(off, vm, off, neg).compareScalar(Fn.Compare.GE, vm, gt, 0).select(off, vm, off, neg)
                        .store(off, o, rr, 0);
            });
            if (nt < t) {
                kb.forRange("r", nt, t, rr -> kb.store(neg, o, rr, 0));
            }
        });
        b.submit(k, in(pos), in(table), outExisting(swa));
    }

    /** A single-block task filling a tensor with one value, in row blocks of up to 128. */
    static void fill(Dsv4Build b, String name, TensorVar target, double value) {
        long rows = target.shape()[0];
        int cols = (int) target.shape()[1];
        int rb = Dsv4Build.tileOf((int) rows, 128);
        KernelRef k = b.aiv(name, kb -> fillBody(kb, target, value, rows, cols, rb));
        b.submit(k, outExisting(target));
    }

    private static void fillBody(KernelBuilder kb, TensorVar target, double value, long rows, int cols, int rb) {
        KTensor o = kb.output("out", target.dtype(), 2);
        KTile v = kb.tile("v", target.dtype(), rb, cols);
        kb.fill(v, value);
        kb.forRange("r", 0, rows, rb, r -> kb.store(v, o, r, 0));
    }
}
