package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.RandomTiles.assertSame;
import static dev.jpto.isa.engine.RandomTiles.copyOf;
import static dev.jpto.isa.engine.RandomTiles.random;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Matmul of the Vector API engine against the scalar reference. The packed register-blocked kernel (this
 * machine's shape: 6×64 with AVX-512, 4×16 with AVX2; {@link MicroKernelAgreementTest} runs both) keeps the
 * reference's order (one FMA per product, k ascending, from C or 0), so the documented bound is 0 ulp:
 * bit-exact, also across K chunks (K > FloatGemm.KC), edge blocks (M % mr, N % nr) and valid regions smaller than the
 * tiles. int8 runs on the same kernels with exact fp32 sums per K chunk, added to C as int32: the reference's
 * wrapping int32 sum, bit for bit.
 */
class MatmulAgreementTest {
    private static final TileEngine VECTOR = new VectorEngine();
    private static final TileEngine SCALAR = new ScalarEngine();

    @Provide
    Arbitrary<DType> inputs() {
        return Arbitraries.of(DType.FP32, DType.BF16, DType.FP16, DType.INT8);
    }

    @Property(tries = 80)
    void matmulIsBitExact(@ForAll("inputs") DType in, @ForAll @IntRange(min = 1, max = 40) int m,
                          @ForAll @IntRange(min = 1, max = 80) int k, @ForAll @IntRange(min = 1, max = 70) int n,
                          @ForAll boolean transposeB, @ForAll boolean accumulate, @ForAll long seed) {
        check(in, m, k, n, transposeB, accumulate, new Random(seed));
    }

    @Test
    void longKCrossesTheChunkBoundary() {
        Random rnd = new Random(7);
        for (DType in : new DType[] {DType.FP32, DType.BF16, DType.INT8}) {
            check(in, 17, 300, 45, false, true, rnd);
            check(in, 9, 513, 33, true, false, rnd);
        }
    }

    @Test
    void fewRowsTimesBTransposedRunAsCTransposedBitForBit() {
        // A·Bᵀ with at most 32 rows of A runs as Cᵀ = B·Aᵀ on the 24×1V block: whole and partial row blocks of B
        // (N = 75 = 3·24 + 3), one and two panels of A's rows (M = 16, 17, 32), several K chunks, from C and from 0
        Random rnd = new Random(11);
        for (DType in : new DType[] {DType.FP32, DType.BF16, DType.FP16, DType.INT8}) {
            for (int m : new int[] {1, 16, 17, 32}) {
                check(in, m, 2 * dev.jpto.isa.engine.simd.FloatGemm.KC + 5, 75, true, true, rnd);
                check(in, m, 40, 75, true, false, rnd);
            }
        }
    }

    @Test
    void int8SumsAtTheirLargestStayExactAcrossChunks() {
        // (-128)·(-128) = 2^14 per product: a KC = 128-long chunk sums to 2^21, the largest a chunk can reach, and the
        // whole row passes 2^24; a last product of 1·1 makes the total odd, which one fp32 chain would round
        int k = 4 * dev.jpto.isa.engine.simd.FloatGemm.KC + 3;
        for (boolean transposeB : new boolean[] {false, true}) {
            Tile a = filled(DType.INT8, 9, k, -128);
            Tile b = transposeB ? filled(DType.INT8, 35, k, -128) : filled(DType.INT8, k, 35, -128);
            for (int i = 0; i < 9; i++) {
                a.setLong(i, k - 1, 1);
            }
            for (int j = 0; j < 35; j++) {
                b.setLong(transposeB ? j : k - 1, transposeB ? k - 1 : j, 1);
            }
            Tile c = filled(DType.INT32, 9, 35, 7);
            VECTOR.matmul(c, a, b, transposeB, true);
            for (int i = 0; i < 9; i++) {
                for (int j = 0; j < 35; j++) {
                    org.assertj.core.api.Assertions.assertThat(c.getLong(i, j)).isEqualTo(7 + (k - 1) * 16384L + 1);
                }
            }
        }
    }

    @Test
    void int8AccumulationWrapsLikeInt32() {
        Tile a = filled(DType.INT8, 3, 40, 127);
        Tile b = filled(DType.INT8, 40, 20, 127);
        Tile c = filled(DType.INT32, 3, 20, Integer.MAX_VALUE - 5);
        Tile s = copyOf(c);
        VECTOR.matmul(c, a, b, false, true);
        SCALAR.matmul(s, a, b, false, true);
        assertSame("int8 wrap", c, s);
        // MAX - 5 + 40·127² wraps past 2^31 to a negative int32
        org.assertj.core.api.Assertions.assertThat(c.getLong(0, 0))
                .isEqualTo((long) (Integer.MAX_VALUE - 5 + 40 * 127 * 127));
    }

    private static Tile filled(DType dtype, int rows, int cols, long value) {
        Tile t = Tile.allocate(dtype, rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                t.setLong(i, j, value);
            }
        }
        return t;
    }

    @Test
    void fullTilesOfTheBenchmarkShape() {
        Random rnd = new Random(11);
        for (DType in : new DType[] {DType.FP32, DType.BF16, DType.INT8}) {
            check(in, 128, 128, 128, false, true, rnd);
        }
    }

    private static void check(DType in, int m, int k, int n, boolean transposeB, boolean accumulate, Random rnd) {
        DType acc = in == DType.INT8 ? DType.INT32 : DType.FP32;
        boolean specials = rnd.nextInt(4) == 0;
        Tile a = random(rnd, in, m, k, rnd.nextInt(3), rnd.nextInt(5), specials);
        Tile b = transposeB ? random(rnd, in, n, k, 1, 2, specials) : random(rnd, in, k, n, 2, rnd.nextInt(40), specials);
        Tile c = random(rnd, acc, m, n, rnd.nextInt(2), rnd.nextInt(3), specials);
        Tile v = copyOf(c);
        Tile s = copyOf(c);
        VECTOR.matmul(v, a, b, transposeB, accumulate);
        SCALAR.matmul(s, a, b, transposeB, accumulate);
        assertSame("matmul " + in + " " + m + "x" + k + "x" + n + (transposeB ? " bt" : "") + (accumulate ? " acc" : ""),
                v, s);
    }
}
