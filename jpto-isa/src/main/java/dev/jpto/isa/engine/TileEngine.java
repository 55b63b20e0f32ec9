package dev.jpto.isa.engine;

import dev.jpto.isa.op.Elementwise;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Fn;

/**
 * Executes single tile ops on resolved operands. Two implementations must agree: the scalar reference
 * engine (the living spec of the ISA) and the Vector API engine. The semantics of each method are those of
 * the matching {@link dev.jpto.isa.op.TileOp} record. A shape or dtype mismatch throws
 * {@link IllegalArgumentException} naming the op, the operand, and the expected and actual shape/dtype.
 * Implementations call {@link OpChecks} first (one set of rules and messages for all engines) and take the
 * per-element rules from {@link Elementwise}; {@code TileEngineContract} (tests) holds the golden cases.
 */
public interface TileEngine {
    /** Loads {@code validRows × validCols} from the last two dimensions of {@code src} at {@code offsets}. */
    void load(Tile dst, Tensor src, long[] offsets, int validRows, int validCols);

    /** Gathers {@code index.validRows} rows of {@code src} (rows = second-to-last dimension). */
    void loadRows(Tile dst, Tensor src, Tile index, long[] offsets, int validCols);

    void store(Tile src, Tensor dst, long[] offsets);

    void fill(Tile dst, double value);

    void copy(Tile dst, Tile src);

    void binary(Fn.Binary fn, Tile dst, Tile a, Tile b);

    void binaryScalar(Fn.Binary fn, Tile dst, Tile a, double b);

    void unary(Fn.Unary fn, Tile dst, Tile src);

    void rowBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b);

    void colBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b);

    void reduce(Fn.Reduce fn, Fn.Axis axis, Tile dst, Tile src);

    void matmul(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate);

    void cast(Tile dst, Tile src, RoundingMode mode);

    void transpose(Tile dst, Tile src);

    void compare(Fn.Compare fn, Tile dst, Tile a, Tile b);

    void compareScalar(Fn.Compare fn, Tile dst, Tile a, double b);

    void select(Tile dst, Tile mask, Tile a, Tile b);

    void gatherRows(Tile dst, Tile src, Tile index);

    void topK(Tile values, Tile indices, Tile src, int k);

    void cumSum(Tile dst, Tile src);

    void quantize(Tile q, Tile scale, Tile src);

    void dequantize(Tile dst, Tile q, Tile scale);

    void iota(Tile dst, Fn.Axis axis, double start);
}
