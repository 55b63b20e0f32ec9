package dev.jpto.lib.compare;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * pypto-lib's {@code mapped_pool_ratio_allclose} / {@code mapped_pool_ratio_reldiff}: an output that is a
 * block-major pool (a paged KV cache, say) of which the program writes only the rows an index mapping names.
 *
 * <p>Layout: {@code [blocks, blockSize, …]}, or {@code [ranks, blocks, blockSize, …]} with
 * {@code leadingRankAxis}. Physical row {@code p} of a rank is {@code (block, slot) = (p / blockSize, p %
 * blockSize)}; a row is everything after the block-size axis. The mapping is an integer input tensor of shape
 * {@code mappingShape} (with a leading rank axis when {@code leadingRankAxis}) whose entries are physical rows, or
 * -1 for "not written".
 *
 * <p>The rule:
 * <ol>
 *   <li>the mapping must exist among the inputs, be integer, have {@code mappingShape}; entries are -1 or in
 *       {@code [0, rows)}; no physical row is named twice within a rank;</li>
 *   <li>every row the mapping does not name must equal the golden bit for bit (catches writes outside the
 *       mapping);</li>
 *   <li>mapped rows must be finite on both sides, and then pass {@code rows} (upstream: ratio_allclose or
 *       ratio_reldiff), applied to the mapped rows gathered in (rank, physical row) order into a
 *       {@code [mapped, rowLength]} tensor. Mismatch indices are translated back to pool coordinates.</li>
 * </ol>
 */
public record MappedPool(String mappingName, long[] mappingShape, long blockSize, boolean leadingRankAxis,
        GoldenComparator rows) implements GoldenComparator {
    public MappedPool {
        mappingShape = mappingShape.clone();
        if (mappingShape.length == 0 || Arrays.stream(mappingShape).anyMatch(d -> d <= 0)) {
            throw new IllegalArgumentException("mapped_pool mapping_shape must have positive dimensions: "
                    + "mapping_shape=" + Arrays.toString(mappingShape));
        }
        if (blockSize <= 0) {
            throw new IllegalArgumentException("mapped_pool block_size must be > 0: block_size=" + blockSize);
        }
        if (leadingRankAxis && mappingShape.length < 2) {
            throw new IllegalArgumentException("mapped_pool with leading_rank_axis needs a mapping_shape of"
                    + " [ranks, items…]: mapping_shape=" + Arrays.toString(mappingShape));
        }
    }

    @Override
    public long[] mappingShape() {
        return mappingShape.clone();
    }

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        String shapeProblem = ElementScan.shapeProblem(actual, expected);
        if (shapeProblem != null) {
            return CompareResult.structural(name(), shapeProblem);
        }
        long[] shape = actual.shape();
        int blockAxis = leadingRankAxis ? 2 : 1;
        if (shape.length <= blockAxis || shape[blockAxis] != blockSize) {
            return CompareResult.structural(name(), "expected a block-major pool "
                    + (leadingRankAxis ? "[ranks, blocks, block_size, …]" : "[blocks, block_size, …]")
                    + " with block_size=" + blockSize + ", got " + Arrays.toString(shape));
        }
        Tensor mapping = context.inputs().get(mappingName);
        if (mapping == null) {
            return CompareResult.structural(name(), "misconfigured: no input named '" + mappingName + "' (inputs: "
                    + new TreeSet<>(context.inputs().keySet()) + ")");
        }
        if (!mapping.dtype().isInteger()) {
            return CompareResult.structural(name(), "'" + mappingName + "' must have an integer dtype, got "
                    + mapping.dtype().text());
        }
        if (!Arrays.equals(mapping.shape(), mappingShape)) {
            return CompareResult.structural(name(), "'" + mappingName + "' must have shape "
                    + Arrays.toString(mappingShape) + ", got " + Arrays.toString(mapping.shape()));
        }
        int ranks = leadingRankAxis ? (int) mappingShape[0] : 1;
        if (leadingRankAxis && shape[0] != ranks) {
            return CompareResult.structural(name(), "pool has " + shape[0] + " ranks on its leading axis, mapping '"
                    + mappingName + "' has " + ranks);
        }
        long rowCount = shape[blockAxis - 1] * blockSize;
        long rowLen = 1;
        for (int d = blockAxis + 1; d < shape.length; d++) {
            rowLen *= shape[d];
        }
        boolean[] written = new boolean[Math.toIntExact(ranks * rowCount)];
        String mappingProblem = markWritten(mapping, ranks, rowCount, written);
        if (mappingProblem != null) {
            return CompareResult.structural(name(), mappingProblem);
        }
        CompareResult stray = strayWrites(actual, expected, written, rowCount, rowLen);
        if (stray != null) {
            return stray;
        }
        return compareMapped(actual, expected, context, written, rowCount, rowLen);
    }

    /** Validates the mapping and marks the rows it names; returns the problem or null. */
    private String markWritten(Tensor mapping, int ranks, long rowCount, boolean[] written) {
        long perRank = mapping.numel() / ranks;
        for (long flat = 0; flat < mapping.numel(); flat++) {
            long v = mapping.dtype().loadLong(mapping.buffer(), mapping.byteOffsetOfFlat(flat));
            String at = "'" + mappingName + "'" + Arrays.toString(ElementScan.unravel(flat, mappingShape));
            if (v < -1) {
                return at + "=" + v + " is invalid; only -1 is a negative sentinel";
            }
            if (v >= rowCount) {
                return at + "=" + v + " is outside the physical row range [0, " + rowCount + ")";
            }
            if (v >= 0) {
                int r = (int) (flat / perRank);
                int slot = (int) (r * rowCount + v);
                if (written[slot]) {
                    return "'" + mappingName + "' names physical row " + v + " twice"
                            + (leadingRankAxis ? " on rank " + r : "") + " (second time at " + at + ")";
                }
                written[slot] = true;
            }
        }
        return null;
    }

    /** Rows outside the mapping must be bit-identical to the golden; returns the failure or null. */
    private CompareResult strayWrites(Tensor actual, Tensor expected, boolean[] written, long rowCount, long rowLen) {
        long changed = 0;
        long strayRows = 0;
        long firstRow = -1;
        List<long[]> first = new ArrayList<>();
        long[] shape = actual.shape();
        for (int row = 0; row < written.length; row++) {
            if (written[row]) {
                continue;
            }
            long changedHere = 0;
            for (long c = 0; c < rowLen; c++) {
                long flat = row * rowLen + c;
                if (rawBits(actual, flat) != rawBits(expected, flat)) {
                    changedHere++;
                    if (first.size() < CompareResult.MAX_SHOWN) {
                        first.add(ElementScan.unravel(flat, shape));
                    }
                }
            }
            if (changedHere > 0) {
                changed += changedHere;
                strayRows++;
                firstRow = firstRow < 0 ? row : firstRow;
            }
        }
        if (changed == 0) {
            return null;
        }
        String where = leadingRankAxis ? "rank=" + firstRow / rowCount + " row=" + firstRow % rowCount
                : "row=" + firstRow;
        String firstText = first.stream().map(Arrays::toString).reduce((a, b) -> a + " " + b).orElse("");
        return new CompareResult(false, actual.numel(), changed, Double.NaN, Double.NaN, first, name() + ": "
                + strayRows + " unmapped physical row(s) changed (first " + where + "), " + changed
                + " value(s) differ from golden; mapping='" + mappingName + "' first at " + firstText);
    }

    private CompareResult compareMapped(Tensor actual, Tensor expected, CompareContext context, boolean[] written,
            long rowCount, long rowLen) {
        List<Integer> rowsOut = new ArrayList<>();
        for (int row = 0; row < written.length; row++) {
            if (written[row]) {
                rowsOut.add(row);
            }
        }
        if (rowsOut.isEmpty()) {
            return new CompareResult(true, 0, 0, Double.NaN, Double.NaN, List.of(),
                    name() + ": no rows mapped; all " + written.length + " rows equal golden");
        }
        try (Arena arena = Arena.ofConfined()) {
            Tensor ga = gather(arena, actual, rowsOut, rowLen);
            Tensor ge = gather(arena, expected, rowsOut, rowLen);
            if (actual.dtype().isFloat()) {
                long nonFiniteA = countNonFinite(ga);
                long nonFiniteE = countNonFinite(ge);
                if (nonFiniteA + nonFiniteE > 0) {
                    return new CompareResult(false, ga.numel(), nonFiniteA + nonFiniteE, Double.NaN, Double.NaN,
                            List.of(), name() + ": mapped rows contain non-finite values: actual " + nonFiniteA
                            + ", expected " + nonFiniteE);
                }
            }
            CompareResult inner = rows.compare(ga, ge, context);
            List<long[]> poolIdx = new ArrayList<>();
            for (long[] gi : inner.firstMismatches()) {
                long row = rowsOut.get((int) gi[0]);
                poolIdx.add(ElementScan.unravel(row * rowLen + gi[1], actual.shape()));
            }
            String firstText = poolIdx.isEmpty() ? ""
                    : " (pool indices: " + poolIdx.stream().map(Arrays::toString).reduce((a, b) -> a + " " + b)
                            .orElse("") + ")";
            return new CompareResult(inner.passed(), inner.numel(), inner.mismatchCount(), inner.maxAbsError(),
                    inner.maxRelError(), poolIdx, name() + ": " + rowsOut.size() + " mapped row(s) of "
                    + written.length + ", unmapped rows equal golden; mapped rows: " + inner.description()
                    + firstText);
        }
    }

    private static Tensor gather(Arena arena, Tensor pool, List<Integer> rowList, long rowLen) {
        Tensor out = Tensor.allocate(arena, pool.dtype(), rowList.size(), rowLen);
        int size = pool.dtype().byteSize();
        for (int g = 0; g < rowList.size(); g++) {
            for (long c = 0; c < rowLen; c++) {
                MemorySegment.copy(pool.buffer(), pool.byteOffsetOfFlat(rowList.get(g) * rowLen + c), out.buffer(),
                        (g * rowLen + c) * size, size);
            }
        }
        return out;
    }

    private static long countNonFinite(Tensor t) {
        long n = 0;
        for (long i = 0; i < t.numel(); i++) {
            if (!Double.isFinite(ElementScan.at(t, i))) {
                n++;
            }
        }
        return n;
    }

    /** The element's bytes as a number: "bit for bit" equality, so -0 ≠ +0 and a NaN equals the same NaN. */
    private static long rawBits(Tensor t, long flat) {
        MemorySegment b = t.buffer();
        long off = t.byteOffsetOfFlat(flat);
        DType d = t.dtype();
        return switch (d.byteSize()) {
            case 1 -> b.get(ValueLayout.JAVA_BYTE, off);
            case 2 -> b.get(ValueLayout.JAVA_SHORT_UNALIGNED, off);
            case 4 -> b.get(ValueLayout.JAVA_INT_UNALIGNED, off);
            default -> b.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MappedPool m && mappingName.equals(m.mappingName)
                && Arrays.equals(mappingShape, m.mappingShape) && blockSize == m.blockSize
                && leadingRankAxis == m.leadingRankAxis && rows.equals(m.rows);
    }

    @Override
    public int hashCode() {
        return mappingName.hashCode() * 31 + Arrays.hashCode(mappingShape) + Long.hashCode(blockSize) * 7
                + rows.hashCode();
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public String name() {
        return "mapped_pool(mapping=" + mappingName + ", shape=" + Arrays.toString(mappingShape) + ", block_size="
                + blockSize + ", leading_rank_axis=" + leadingRankAxis + ", rows=" + rows.name() + ")";
    }
}
