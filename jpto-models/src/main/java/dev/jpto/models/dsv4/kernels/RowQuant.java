package dev.jpto.models.dsv4.kernels;

import static dev.jpto.isa.DType.FP32;
import static dev.jpto.isa.DType.INT8;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.op.Fn;

/**
 * Per-row int8 of rows held or recomputed in column chunks, as {@link Tiles#quantRows} on the whole row:
 * amax = max(max over chunks of rowMax|x|, 1e-4), sq = 127/amax, q = rint(x·sq) (bit-identical, max is
 * exact). {@code y} and {@code q8} are chunk-wide scratch, the others [R, 1].
 */
record RowQuant(KTile y, KTile part, KTile amax, KTile sq, KTile num, KTile q8) {
    static RowQuant of(KernelBuilder kb, int rows, int cols) {
        return new RowQuant(kb.tile("q_y", FP32, rows, cols), kb.tile("q_part", FP32, rows, 1),
                kb.tile("q_amax", FP32, rows, 1), kb.tile("q_sq", FP32, rows, 1),
                kb.tile("q_num", FP32, rows, 1), kb.tile("q_i8", INT8, rows, cols));
    }

    /** A chunk of the row at column {@code col}, computed into a tile; {@code first} on the amax pass. */
    interface Chunk {
        KTile at(KScalar col, boolean first);
    }

    /** The chunks of [R, cols] computed twice (amax, then the codes into {@code oQ}); leaves sq. */
    void overChunks(KernelBuilder kb, int cols, Chunk chunk, KTensor oQ) {
        start(kb);
        kb.forRange("qa", 0, cols, q8.cols(), c -> add(kb, chunk.at(c, true)));
        finish(kb);
        kb.forRange("qc", 0, cols, q8.cols(), c -> codes(kb, chunk.at(c, false), oQ, c));
    }

    void start(KernelBuilder kb) {
        kb.fill(amax, 0);
    }

    /** amax = max(amax, rowMax|x|), after {@link #start}. */
    void add(KernelBuilder kb, KTile x) {
        kb.unary(Fn.Unary.ABS, y, x).rowMax(part, y).max(amax, amax, part);
    }

    void finish(KernelBuilder kb) {
        kb.binaryScalar(Fn.Binary.MAX, amax, amax, 1e-4).fill(num, 127).div(sq, num, amax);
    }

    /** Stores the int8 codes of chunk {@code x} at column {@code col} of {@code oQ}. */
    void codes(KernelBuilder kb, KTile x, KTensor oQ, Object col) {
        kb.rowBroadcast(Fn.Binary.MUL, y, x, sq).cast(q8, y, RoundingMode.RINT).store(q8, oQ, 0, col);
    }

    /** Stores the dequantisation scale 1/sq, times {@code factor} [R, 1] unless null. */
    void storeScale(KernelBuilder kb, KTensor oS, KTile factor) {
        kb.fill(num, 1).div(num, num, sq);
        if (factor != null) {
            kb.mul(num, num, factor);
        }
        kb.store(num, oS, 0, 0);
    }
}
