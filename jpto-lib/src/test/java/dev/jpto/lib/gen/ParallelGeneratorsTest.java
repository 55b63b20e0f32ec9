package dev.jpto.lib.gen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The parallel, vectorised {@link Generators#fill} gives the bits of the sequential reference, for every case. */
class ParallelGeneratorsTest {
    private static final long[] SIZES = {1, 2, 7, ParallelFill.CHUNK - 1, ParallelFill.CHUNK + 1,
            2L * ParallelFill.CHUNK + 3};

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (DType dtype : DType.values()) {
            for (Init init : initsFor(dtype)) {
                for (long n : SIZES) {
                    out.add(Arguments.of(dtype, init, n));
                }
            }
        }
        return out.stream();
    }

    private static List<Init> initsFor(DType dtype) {
        if (dtype.isFloat()) {
            return List.of(Init.uniform(-0.75, 1.5), Init.normal(0.25, 3), Init.constant(-1.5),
                    Init.integers(-100, 100));
        }
        long hi = dtype == DType.INT64 ? Long.MAX_VALUE : dtype.maxValue() + 1;
        return List.of(Init.integers(dtype.minValue(), hi), Init.uniform(dtype.minValue(), dtype.maxValue()),
                Init.constant(1));
    }

    @ParameterizedTest(name = "{0} {1} n={2}")
    @MethodSource("cases")
    void sameBitsAsTheSequentialReference(DType dtype, Init init, long n) {
        try (Arena arena = Arena.ofShared()) {
            Tensor parallel = Tensor.allocate(arena, dtype, n);
            Tensor reference = Tensor.allocate(arena, dtype, n);
            Generators.fill(parallel, "w", init, 99);
            Generators.fillSequential(reference, "w", init, 99);
            assertThat(bytes(parallel)).as("%s %s n=%d", dtype, init.describe(), n).isEqualTo(bytes(reference));
        }
    }

    @Test
    void confinedTargetsAndViewsGetTheReferenceBitsToo() {
        long n = 2L * ParallelFill.CHUNK + 5;
        try (Arena arena = Arena.ofConfined()) {
            Tensor confined = Tensor.allocate(arena, DType.BF16, n);
            Tensor reference = Tensor.allocate(arena, DType.BF16, n);
            Generators.fill(confined, "x", Init.normal(0, 1), 5);
            Generators.fillSequential(reference, "x", Init.normal(0, 1), 5);
            assertThat(bytes(confined)).isEqualTo(bytes(reference));

            Tensor base = Tensor.allocate(arena, DType.FP32, 300, 301);
            Tensor view = base.slice(new long[] {1, 2}, new long[] {299, 299});
            Tensor expected = Tensor.allocate(arena, DType.FP32, 299, 299);
            Generators.fill(view, "v", Init.uniform(-1, 1), 3);
            Generators.fillSequential(expected, "v", Init.uniform(-1, 1), 3);
            assertThat(view.toDoubleArray()).isEqualTo(expected.toDoubleArray());
            assertThat(base.getDouble(0)).isZero();
        }
    }

    @Test
    void vectorDrawsEqualScalarDraws() {
        double[] vector = new double[1003];
        SplitMix64 a = new SplitMix64(0x1234_5678_9ABCL);
        a.nextDoubles(vector, 0, vector.length);
        SplitMix64 b = new SplitMix64(0x1234_5678_9ABCL);
        for (int i = 0; i < vector.length; i++) {
            assertThat(vector[i]).as("draw %d", i).isEqualTo(b.nextDouble());
        }
        assertThat(a.nextLong()).as("both streams end at the same position").isEqualTo(b.nextLong());
        SplitMix64 skipped = new SplitMix64(0x1234_5678_9ABCL);
        skipped.skip(vector.length + 1);
        assertThat(skipped.nextLong()).as("skip lands where the draws did").isEqualTo(b.nextLong());
    }

    @Test
    void branchFreeStoresRoundLikeTheDtype() {
        SplitMix64 r = new SplitMix64(17);
        double[] special = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300,
                -1e300, Double.MIN_VALUE, -Double.MIN_VALUE, Float.MAX_VALUE, 0x1.0p-149, 127.5, 128.5, -128.5,
                -127.5, 0.5, -0.5, 1.5, 2.5, 3.4028235677973366e38};
        MemorySegment cell = MemorySegment.ofArray(new byte[2]);
        for (int i = 0; i < 2_000_000 + special.length; i++) {
            double v = i < special.length ? special[i]
                    : Double.longBitsToDouble(r.nextLong()) % 1e6 * (i % 3 == 0 ? 1e-30 : 1);
            DType.BF16.storeDouble(cell, 0, v);
            assertThat(ParallelFill.bf16(v)).as("bf16 of %s", v).isEqualTo(cell.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0));
            DType.INT8.storeDouble(cell, 0, v);
            assertThat(ParallelFill.int8(v)).as("int8 of %s", v).isEqualTo(cell.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    private static byte[] bytes(Tensor t) {
        return t.buffer().asSlice(0, t.byteSize()).toArray(ValueLayout.JAVA_BYTE);
    }
}
