package dev.jpto.lib.npy;

import static dev.jpto.lib.npy.NpyFixtures.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reads files written by numpy (see generate_fixtures.py) and checks every value against the formula. */
class NpyReadTest {
    private static final long[] SHAPE3 = {2, 3, 4};

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "f4_3d.npy, fp32, float",
        "f2_3d.npy, fp16, float",
        "i1_3d.npy, int8, int",
        "i2_3d.npy, int16, int",
        "i4_3d.npy, int32, int",
        "u1_3d.npy, uint8, u1",
        "b1_3d.npy, bool, bool",
    })
    void readsEveryDtypeWrittenByNumpy(String file, String dtype, String formula) throws IOException {
        Tensor t = Npy.read(path(file));
        assertThat(t.dtype()).isEqualTo(DType.fromText(dtype));
        assertThat(t.shape()).containsExactly(SHAPE3);
        LongToDoubleFunction f = switch (formula) {
            case "float" -> NpyFixtures::fFloat;
            case "int" -> NpyFixtures::fInt;
            case "u1" -> NpyFixtures::fU1;
            case "bool" -> NpyFixtures::fBool;
            default -> throw new IllegalArgumentException(formula);
        };
        for (long i = 0; i < t.numel(); i++) {
            assertThat(t.getDouble(i)).as("%s[%d]", file, i).isEqualTo(f.applyAsDouble(i));
        }
    }

    @Test
    void f8IsReadIntoFp32RoundedToNearest() throws IOException {
        Tensor t = Npy.read(path("f8_3d.npy"));
        assertThat(t.dtype()).isEqualTo(DType.FP32);
        assertThat(t.shape()).containsExactly(SHAPE3);
        for (long i = 0; i < t.numel(); i++) {
            float expected = (float) NpyFixtures.fF8(i);
            assertThat(Float.floatToRawIntBits(t.dtype().loadFloat(t.buffer(), t.byteOffsetOfFlat(i))))
                    .as("element %d", i).isEqualTo(Float.floatToRawIntBits(expected));
        }
    }

    @Test
    void int64IsCopiedExactlyBeyondDoublePrecision() throws IOException {
        Tensor t = Npy.read(path("i8_1d.npy"));
        assertThat(t.dtype()).isEqualTo(DType.INT64);
        assertThat(t.shape()).containsExactly(7);
        for (long i = 0; i < 7; i++) {
            assertThat(DType.INT64.loadLong(t.buffer(), t.byteOffsetOfFlat(i))).isEqualTo(NpyFixtures.fI8(i));
        }
    }

    @Test
    void zeroDimensionalOneDimensionalAndEmpty() throws IOException {
        Tensor scalar = Npy.read(path("f4_0d.npy"));
        assertThat(scalar.rank()).isZero();
        assertThat(scalar.numel()).isEqualTo(1);
        assertThat(scalar.getDouble(0)).isEqualTo(2.5);

        Tensor vec = Npy.read(path("f4_1d.npy"));
        assertThat(vec.shape()).containsExactly(11);
        for (long i = 0; i < 11; i++) {
            assertThat(vec.getDouble(i)).isEqualTo(NpyFixtures.fFloat(i));
        }

        Tensor empty = Npy.read(path("f4_empty.npy"));
        assertThat(empty.shape()).containsExactly(0, 3);
        assertThat(empty.numel()).isZero();
    }

    @Test
    void readsVersion2() throws IOException {
        NpyHeader h = Npy.readHeader(path("f4_v2.npy"));
        assertThat(h.majorVersion()).isEqualTo(2);
        assertThat(h.dataOffset()).isEqualTo(128);
        Tensor t = Npy.read(path("f4_v2.npy"));
        assertThat(t.shape()).containsExactly(3, 5);
        for (long i = 0; i < 15; i++) {
            assertThat(t.getDouble(i)).isEqualTo(NpyFixtures.fFloat(i));
        }
    }

    @Test
    void f4IntoBf16OnRequestRoundsToNearestEven() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Npy.read(path("f4_bf16_round.npy"), arena, DType.BF16, new long[] {4});
            assertThat(t.dtype()).isEqualTo(DType.BF16);
            // 1+2^-8 is halfway between 1 and 1+2^-7: ties to the even mantissa (1.0).
            // 1+3*2^-8 is halfway between 1+2^-7 and 1+2^-6: the even one is 1+2^-6.
            // 1+2^-8+2^-20 is just above halfway: up to 1+2^-7.
            assertThat(t.toDoubleArray()).containsExactly(1.0, 1.0 + Math.scalb(1.0, -6), 1.0 + Math.scalb(1.0, -7),
                    -3.0);
        }
    }

    @Test
    void f4IsReadAsFp32UnlessBf16IsAskedFor() throws IOException {
        Tensor t = Npy.read(path("f4_bf16_round.npy"));
        assertThat(t.dtype()).isEqualTo(DType.FP32);
        assertThat(t.getDouble(0)).isEqualTo(1.0 + Math.scalb(1.0, -8));
    }

    @Test
    void expectedDtypeMismatchNamesFileAndBothTypes() {
        assertThatThrownBy(() -> Npy.read(path("i4_3d.npy"), DType.INT8, null))
                .isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("i4_3d.npy")
                .hasMessageContaining("<i4")
                .hasMessageContaining("int8 was expected");
        assertThatThrownBy(() -> Npy.read(path("i4_3d.npy"), DType.FP32, null))
                .hasMessageContaining("fp32 was expected");
    }

    @Test
    void expectedShapeMismatchNamesBothShapes() {
        assertThatThrownBy(() -> Npy.read(path("f4_3d.npy"), DType.FP32, new long[] {4, 3, 2}))
                .isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("f4_3d.npy")
                .hasMessageContaining("(2, 3, 4)")
                .hasMessageContaining("(4, 3, 2) was expected");
    }

    @Test
    void expectedDtypeAndShapeThatMatchRead() throws IOException {
        Tensor t = Npy.read(path("i2_3d.npy"), DType.INT16, SHAPE3);
        assertThat(t.getDouble(5)).isEqualTo(NpyFixtures.fInt(5));
    }

    @Test
    void bigEndianIsRejected() {
        assertThatThrownBy(() -> Npy.read(path("f4_bigendian.npy")))
                .isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("f4_bigendian.npy")
                .hasMessageContaining("big-endian descr '>f4'")
                .hasMessageContaining("'<f4'");
    }

    @Test
    void fortranOrderIsRejected() {
        assertThatThrownBy(() -> Npy.read(path("f4_fortran.npy")))
                .isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("f4_fortran.npy")
                .hasMessageContaining("fortran_order is True")
                .hasMessageContaining("'fortran_order': False");
    }

    @Test
    void unsupportedDescrListsTheSupportedOnes() {
        assertThatThrownBy(() -> Npy.read(path("c8_unsupported.npy")))
                .isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("c8_unsupported.npy")
                .hasMessageContaining("descr '<c8' is not supported")
                .hasMessageContaining("<f4, <f2, <f8, |i1, <i2, <i4, <i8, |u1, |b1");
    }
}
