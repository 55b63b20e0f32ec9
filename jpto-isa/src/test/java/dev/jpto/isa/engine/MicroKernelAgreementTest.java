package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.RandomTiles.assertSame;
import static dev.jpto.isa.engine.RandomTiles.copyOf;
import static dev.jpto.isa.engine.RandomTiles.random;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.simd.FloatGemm;
import dev.jpto.isa.engine.simd.MicroKernel;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Every register-block shape of {@link FloatGemm} against the scalar reference, whatever this machine's lane
 * count: the AVX-512 shape (6×64) and the AVX2 shape (4×16) both run here, the one wider than the machine in
 * the Vector API's Java fallback. Bit-exact, as both keep the reference's order (one FMA per product, k
 * ascending, from C or 0), across edge blocks (M % mr, N % nr), K chunks and transposed, bf16 and fp16 B; int8
 * (exact fp32 sums per K chunk, added to the int32 C) matches the reference's wrapping int32 sum.
 */
class MicroKernelAgreementTest {
    private static final TileEngine SCALAR = new ScalarEngine();

    @Provide
    Arbitrary<MicroKernel> kernels() {
        return Arbitraries.of(MicroKernel.Rows6.INSTANCE, MicroKernel.Rows4.INSTANCE);
    }

    @Provide
    Arbitrary<DType> inputs() {
        return Arbitraries.of(DType.FP32, DType.BF16, DType.FP16, DType.INT8);
    }

    @Property(tries = 60)
    void everyShapeIsBitExact(@ForAll("kernels") MicroKernel kernel, @ForAll("inputs") DType in,
                              @ForAll @IntRange(min = 1, max = 19) int m, @ForAll @IntRange(min = 1, max = 40) int k,
                              @ForAll @IntRange(min = 1, max = 70) int n, @ForAll boolean transposeB,
                              @ForAll boolean accumulate, @ForAll long seed) {
        check(new FloatGemm(kernel), in, m, k, n, transposeB, accumulate, new Random(seed));
    }

    @Test
    void longKCrossesTheChunkBoundaryInEveryShape() {
        Random rnd = new Random(3);
        for (MicroKernel kernel : new MicroKernel[] {MicroKernel.Rows6.INSTANCE, MicroKernel.Rows4.INSTANCE}) {
            FloatGemm gemm = new FloatGemm(kernel);
            check(gemm, DType.FP32, 9, FloatGemm.KC + 45, 33, false, true, rnd);
            check(gemm, DType.BF16, 5, 2 * FloatGemm.KC + 1, 17, true, false, rnd);
            check(gemm, DType.INT8, 11, 3 * FloatGemm.KC + 7, 37, false, true, rnd);
            check(gemm, DType.INT8, 6, 2 * FloatGemm.KC, 21, true, false, rnd);
        }
    }

    @Test
    void oneInstanceServesShrinkingAndGrowingTiles() {
        Random rnd = new Random(5);
        FloatGemm gemm = new FloatGemm(MicroKernel.forMachine());
        check(gemm, DType.FP32, 40, 64, 48, false, true, rnd);
        check(gemm, DType.FP32, 3, 5, 7, true, true, rnd); // stale sums and panels from the larger call must not leak
        check(gemm, DType.BF16, 33, 70, 65, false, false, rnd);
    }

    @Test
    void aCThatIsAlsoAnOperandReadsTheOperandAsItWasBeforeTheCall() {
        // C is summed in place only when it shares no memory with A or B; otherwise in a scratch copy, so the
        // product uses the operands' values from before the call (a copy of the operand gives the same bits)
        Random rnd = new Random(9);
        for (MicroKernel kernel : new MicroKernel[] {MicroKernel.Rows6.INSTANCE, MicroKernel.Rows4.INSTANCE}) {
            FloatGemm gemm = new FloatGemm(kernel);
            Tile c = random(rnd, DType.FP32, 13, 13, 0, 0, false);
            Tile b = random(rnd, DType.FP32, 13, 13, 0, 0, false);
            Tile expected = copyOf(c);
            gemm.multiply(expected, copyOf(c), b, false, true);
            gemm.multiply(c, c, b, false, true);
            assertSame(kernel + " c = a", c, expected);
            Tile expectedB = copyOf(c);
            gemm.multiply(expectedB, b, copyOf(c), true, false);
            gemm.multiply(c, b, c, true, false);
            assertSame(kernel + " c = b", c, expectedB);
        }
    }

    @Test
    void theMachineShapeFitsTheVectorRegisters() {
        MicroKernel kernel = MicroKernel.forMachine();
        int lanes = FloatVector.SPECIES_PREFERRED.length();
        boolean wide = FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
        if (wide) {
            assertThat(kernel).isSameAs(MicroKernel.Rows6.INSTANCE);
            assertThat(kernel.nr()).isEqualTo(4 * lanes);
        } else {
            assertThat(kernel).isSameAs(MicroKernel.Rows4.INSTANCE);
            assertThat(kernel.mr()).isEqualTo(4);
        }
        // accumulators + the B vectors of one k + the A broadcasts C2 keeps live (one on AVX-512, mr on AVX2)
        // fit the register file (32 zmm / 16 ymm)
        int vectors = kernel.nr() / lanes;
        int registers = wide ? 32 : 16;
        assertThat(kernel.mr() * vectors + vectors + (wide ? 1 : kernel.mr())).isLessThanOrEqualTo(registers);
    }

    private static void check(FloatGemm gemm, DType in, int m, int k, int n, boolean transposeB, boolean accumulate,
                              Random rnd) {
        boolean specials = rnd.nextInt(4) == 0;
        Tile a = random(rnd, in, m, k, rnd.nextInt(3), rnd.nextInt(5), specials);
        Tile b = transposeB ? random(rnd, in, n, k, 1, 2, specials) : random(rnd, in, k, n, 2, rnd.nextInt(40), specials);
        Tile c = random(rnd, in == DType.INT8 ? DType.INT32 : DType.FP32, m, n, rnd.nextInt(2), rnd.nextInt(3),
                specials);
        Tile v = copyOf(c);
        Tile s = copyOf(c);
        gemm.multiply(v, a, b, transposeB, accumulate);
        v.setValid(m, n);
        SCALAR.matmul(s, a, b, transposeB, accumulate);
        assertSame(gemm.kernel() + " " + in + " " + m + "x" + k + "x" + n + (transposeB ? " bt" : "")
                + (accumulate ? " acc" : ""), v, s);
    }
}
