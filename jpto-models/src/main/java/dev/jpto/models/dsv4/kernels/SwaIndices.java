package dev.jpto.models.dsv4.kernels;

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
            WindowRow wr = WindowRow.declare(kb, tb, win, bs, nb);
            kb.forRange("r", 0, nt, rr -> kb.store(wr.compute(kb, p, rr), o, rr, 0));
            if (nt < t) {
                kb.forRange("r", nt, t, rr -> kb.store(wr.neg(), o, rr, 0));
            }
        });
        b.submit(k, in(pos), in(table), outExisting(swa));
    }

    /**
     * The window of one token row inside a kernel: {@link #compute} turns the row's position into the WIN cache
     * rows of keys {@code pos-n+1 .. pos} through the block table (−1 for unused columns and unmapped blocks).
     */
    record WindowRow(KTile pt, KTile n, KTile f, KTile kk, KTile key, KTile blk, KTile off, KTile tmp, KTile neg,
                     KTile vm, KTile blkT, KTile g, KTile gt, KTile tbl, int win, int bs, long nb) {
        static WindowRow declare(KernelBuilder kb, KTensor tb, int win, int bs, long nb) {
            KTile tbr = kb.tile("tbr", INT32, 1, (int) nb);
            WindowRow w = new WindowRow(kb.tile("p", INT32, 1, 1), kb.tile("n", INT32, 1, 1),
                    kb.tile("f", INT32, 1, 1), kb.tile("k", INT32, 1, win), kb.tile("key", INT32, 1, win),
                    kb.tile("blk", INT32, 1, win), kb.tile("off", INT32, 1, win), kb.tile("tmp", INT32, 1, win),
                    kb.tile("neg", INT32, 1, win), kb.tile("vm", BOOL, 1, win), kb.tile("blk_t", INT32, win, 1),
                    kb.tile("g", INT32, win, 1), kb.tile("gt", INT32, 1, win), kb.tile("tbl", INT32, (int) nb, 1),
                    win, bs, nb);
            kb.iota(w.kk, Fn.Axis.COLS, 0).fill(w.neg, -1).load(tbr, tb, 0, 0).transpose(w.tbl, tbr);
            return w;
        }

        /** The window of row {@code r} of {@code p} (positions [T, 1]); returns the [1, WIN] tile holding it. */
        KTile compute(KernelBuilder kb, KTensor p, Object r) {
            kb.load(pt, p, r, 0).adds(n, pt, 1).binaryScalar(Fn.Binary.MIN, n, n, win).adds(f, pt, 1)
                    .sub(f, f, n).rowBroadcast(Fn.Binary.ADD, key, kk, f)
                    .binaryScalar(Fn.Binary.MAX, key, key, 0).binaryScalar(Fn.Binary.DIV, blk, key, bs)
                    .binaryScalar(Fn.Binary.MIN, blk, blk, nb - 1).muls(off, blk, bs).sub(off, key, off)
                    .transpose(blkT, blk).gatherRows(g, tbl, blkT).transpose(gt, g)
                    .muls(tmp, gt, bs).add(off, tmp, off)
                    .rowBroadcast(Fn.Binary.SUB, tmp, kk, n).compareScalar(Fn.Compare.LT, vm, tmp, 0)
                    .select(off, vm, off, neg).compareScalar(Fn.Compare.GE, vm, gt, 0).select(off, vm, off, neg);
            return off;
        }
    }

    /** A single-block task filling a tensor with one value, in row blocks of up to 128. */
    static void fill(Dsv4Build b, String name, TensorVar target, double value) {
        fill(b, name, target, value, 128, (int) target.shape()[1]);
    }

    /**
     * {@link #fill} from one tile of at most {@code maxRows × maxCols}, stored at every block: a tile of the whole
     * width may not fit the UB.
     */
    static void fill(Dsv4Build b, String name, TensorVar target, double value, int maxRows, int maxCols) {
        long rows = target.shape()[0];
        int cols = (int) target.shape()[1];
        int rb = Dsv4Build.tileOf((int) rows, maxRows);
        int cb = Dsv4Build.tileOf(cols, maxCols);
        KernelRef k = b.aiv(name, kb -> {
            KTensor o = kb.output("out", target.dtype(), 2);
            KTile v = kb.tile("v", target.dtype(), rb, cb);
            kb.fill(v, value);
            kb.forRange("r", 0, rows, rb, r -> {
                if (cb == cols) {
                    kb.store(v, o, r, 0);
                } else {
                    kb.forRange("c", 0, cols, cb, c -> kb.store(v, o, r, c));
                }
            });
        });
        b.submit(k, outExisting(target));
    }
}
