package dev.jpto.models.dsv4.kernels;

import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.op.Fn;

/** Kernel fragments the stages share: interleaved RoPE by pair swap, split-K matmuls and their reductions. */
final class Tiles {
    private Tiles() {
    }

    /** Scratch of {@link #rope}: x transposed, gathered, and back. */
    record RopeScratch(KTile xt, KTile g, KTile sw) {
        static RopeScratch of(KernelBuilder kb, int rows, int rope) {
            return new RopeScratch(kb.tile("rope_xt", FP32, rope, rows), kb.tile("rope_g", FP32, rope, rows),
                    kb.tile("rope_sw", FP32, rows, rope));
        }
    }

    /**
     * {@code x = x·cos_il + swap(x)·sin_signed} in place: pair (2i, 2i+1) rotated; the sign pattern of sin_signed
     * picks forward or inverse. swap exchanges lanes 2i and 2i+1 (a gather of the transposed tile by the pair-swap
     * index column).
     */
    static void rope(KernelBuilder kb, KTile x, KTile cosIl, KTile sinSigned, KTile swapCol, RopeScratch s) {
        kb.transpose(s.xt(), x).gatherRows(s.g(), s.xt(), swapCol).transpose(s.sw(), s.g())
                .mul(x, x, cosIl).mul(s.sw(), s.sw(), sinSigned).add(x, x, s.sw());
    }

    /**
     * Interleaving of RoPE half-table tiles: {@code dst[r][l] = half[r][l / 2]} (the frequency of lane l), and for
     * sin the forward sign pattern (−sin on even lanes, +sin on odd); {@link #swapCol} is the pair-swap column of
     * {@link #rope}. Scratch is sized for {@code rows} table rows.
     */
    record Interleave(KTile e, KTile sign, KTile swapCol, KTile ht, KTile g) {
        static Interleave of(KernelBuilder kb, int rows, int rope) {
            int half = rope / 2;
            KTile e = kb.tile("il_e", INT32, rope, 1);
            KTile ci = kb.tile("il_ci", INT32, 1, rope);
            KTile cm = kb.tile("il_cm", INT32, 1, rope);
            KTile sg = kb.tile("il_sg", INT32, 1, rope);
            KTile sign = kb.tile("il_sign", FP32, 1, rope);
            KTile sw = kb.tile("il_sw", INT32, 1, rope);
            KTile swapCol = kb.tile("il_swap", INT32, rope, 1);
            kb.iota(e, Fn.Axis.ROWS, 0).binaryScalar(Fn.Binary.DIV, e, e, 2);
            kb.iota(ci, Fn.Axis.COLS, 0).binaryScalar(Fn.Binary.DIV, cm, ci, 2).muls(cm, cm, 2).sub(cm, ci, cm);
            kb.muls(sg, cm, 2).adds(sg, sg, -1).cast(sign, sg);
            kb.muls(sw, cm, -2).adds(sw, sw, 1).add(sw, sw, ci).transpose(swapCol, sw);
            return new Interleave(e, sign, swapCol, kb.tile("il_ht", FP32, half, rows),
                    kb.tile("il_g", FP32, rope, rows));
        }

        /** {@code dst[rows, rope]} ← the interleaved cos of {@code half[rows, rope/2]}. */
        void cos(KernelBuilder kb, KTile dst, KTile half) {
            kb.transpose(ht, half).gatherRows(g, ht, e).transpose(dst, g);
        }

        /** {@code dst[rows, rope]} ← the interleaved, forward-signed sin of {@code half[rows, rope/2]}. */
        void sin(KernelBuilder kb, KTile dst, KTile half) {
            cos(kb, dst, half);
            kb.colBroadcast(Fn.Binary.MUL, dst, dst, sign);
        }
    }

    /** Loads the pair-swap index row 0 of {@code swapIdx} [.., rope] as a column [rope, 1]. */
    static KTile swapColumn(KernelBuilder kb, KTensor swapIdx, int rope) {
        KTile row = kb.tile("swap_row", INT32, 1, rope);
        KTile col = kb.tile("swap_col", INT32, rope, 1);
        kb.load(row, swapIdx, 0, 0).transpose(col, row);
        return col;
    }

    /**
     * A split-K matmul task: {@code out[T, nc] = a[T, kPart] · w[kPart, nc]} over all rows in 16-row tiles,
     * K in chunks of up to {@code kc}; a and w in {@code dtype} (fp32 accumulation, or int8 → int32).
     */
    static KernelRef splitK(Dsv4Build b, String name, DType dtype, int rows, int kPart, int nc, int kc) {
        int kk = Dsv4Build.tileOf(kPart, kc);
        DType acc = dtype == DType.INT8 ? INT32 : FP32;
        return b.aic(name, kb -> {
            KTensor a = kb.input("a", dtype, 2);
            KTensor w = kb.input("w", dtype, 2);
            KTensor o = kb.output("out", acc, 2);
            KTile ta = kb.tile("ta", dtype, 16, kk);
            KTile tw = kb.tile("tw", dtype, kk, nc);
            KTile tc = kb.tile("tc", acc, 16, nc);
            kb.forRange("m", 0, rows, 16, mi -> {
                kb.fill(tc, 0);
                kb.forRange("k", 0, kPart, kk, k -> kb.load(ta, a, mi, k).load(tw, w, k, 0).matmulAcc(tc, ta, tw));
                kb.store(tc, o, mi, 0);
            });
        });
    }

    /** Adds {@code parts} partials stacked every {@code stride} rows: 16 rows × nc columns at (r0, c0). */
    static KernelRef reduceParts(Dsv4Build b, String name, int parts, int stride, int nc) {
        return b.aiv(name, kb -> {
            KTensor pt = kb.input("partials", FP32, 2);
            KTensor o = kb.output("out", FP32, 2);
            var r0 = kb.scalar("r0");
            var c0 = kb.scalar("c0");
            KTile acc = kb.tile("acc", FP32, 16, nc);
            KTile u = kb.tile("u", FP32, 16, nc);
            kb.load(acc, pt, r0, c0);
            kb.forRange("q", 1, parts, q -> kb.load(u, pt, r0.plus(q.times(stride)), c0).add(acc, acc, u));
            kb.store(acc, o, 0, 0);
        });
    }

    /** {@code dst[R, 1] = max(rowSum(a²)/n + eps)^-1/2} using {@code sq} (a's shape) as scratch; accumulates. */
    static void addSquares(KernelBuilder kb, KTile acc, KTile a, KTile sq, KTile part) {
        kb.mul(sq, a, a).rowSum(part, sq).add(acc, acc, part);
    }

    /**
     * {@code acc[R, 1] = (Σ_c x[r, c]² / d + eps)^-1/2} over the rows of tensor {@code x} [R, d], read in chunks
     * of {@code xc}'s width ({@code part} [R, 1] is scratch): the RMSNorm factor of the DSv4 norm kernels.
     */
    static void rowInvRms(KernelBuilder kb, KTensor x, KTile xc, KTile part, KTile acc, int d, double eps) {
        kb.fill(acc, 0);
        kb.forRange("c", 0, d, xc.cols(), c -> {
            kb.load(xc, x, 0, c);
            addSquares(kb, acc, xc, xc, part);
        });
        finishRsqrt(kb, acc, d, eps);
    }

    static void finishRsqrt(KernelBuilder kb, KTile acc, int n, double eps) {
        kb.muls(acc, acc, 1.0 / n).adds(acc, acc, eps).unary(Fn.Unary.RSQRT, acc, acc);
    }

    /**
     * Full-tile mask from a column: {@code mask[r][c] = col[r][0] > 0} (int32 col); {@code wide} (int32, the mask's
     * shape) is zeroed and the column broadcast into it.
     */
    static void columnMask(KernelBuilder kb, KTile mask, KTile col, KTile wide) {
        kb.fill(wide, 0).rowBroadcast(Fn.Binary.ADD, wide, wide, col).compareScalar(Fn.Compare.GT, mask, wide, 0);
    }

    /**
     * {@link #columnMask} without an int32 tile of the mask's width: the column as fp32 ({@code colF}) broadcast
     * over {@code zeros} into {@code scratch}, fp32 tiles of the mask's shape the kernel has anyway (scratch is
     * clobbered).
     */
    static void columnMaskViaFloat(KernelBuilder kb, KTile mask, KTile col, KTile colF, KTile zeros,
                                   KTile scratch) {
        kb.cast(colF, col).rowBroadcast(Fn.Binary.ADD, scratch, zeros, colF)
                .compareScalar(Fn.Compare.GT, mask, scratch, 0);
    }

    /** amax = max(rowMax|x|, 1e-4), sq = 127/amax, q = rint(x·sq) as int8; leaves sq in {@code sq}. */
    static void quantRows(KernelBuilder kb, KTile x, KTile y, KTile amax, KTile sq,
                          KTile num, KTile q8) {
        kb.unary(Fn.Unary.ABS, y, x).rowMax(amax, y).binaryScalar(Fn.Binary.MAX, amax, amax, 1e-4).fill(num, 127)
                .div(sq, num, amax).rowBroadcast(Fn.Binary.MUL, y, x, sq).cast(q8, y, RoundingMode.RINT);
    }
}
