package dev.jpto.lib.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Files jpto writes: header layout, bit-exact round trips, strided views, bf16 as f4, version 2.0. */
class NpyWriteTest {
    @TempDir
    Path dir;

    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    /** Element i of a test tensor of {@code dtype}: a formula, not the code under test. */
    static long rawValue(DType dtype, long i) {
        return switch (dtype) {
            case FP32, FP16, BF16 -> 0; // floats are set through setDouble below
            case INT8 -> (i * 37) % 251 - 125;
            case UINT8 -> (i * 37) % 256;
            case INT16 -> (i * 4099) % 65_521 - 32_760;
            case INT32 -> (i * 2_654_435_761L) % 4_294_967_291L - 2_147_483_645L;
            case INT64 -> (i - 3) * 3_000_000_000_000_000_007L / 7;
            case BOOL -> i % 3 == 0 ? 1 : 0;
        };
    }

    static double floatValue(long i) {
        return (i - 7) * 0.8125 + (i % 5) * 1e-3;
    }

    static Tensor filled(Arena arena, DType dtype, long... shape) {
        Tensor t = Tensor.allocate(arena, dtype, shape);
        for (long i = 0; i < t.numel(); i++) {
            if (dtype.isFloat()) {
                t.setDouble(i, floatValue(i));
            } else {
                dtype.storeLong(t.buffer(), t.byteOffsetOfFlat(i), rawValue(dtype, i));
            }
        }
        return t;
    }

    private static byte[] elementBytes(Tensor t) {
        int size = t.dtype().byteSize();
        byte[] out = new byte[(int) t.numel() * size];
        for (long i = 0; i < t.numel(); i++) {
            for (int b = 0; b < size; b++) {
                out[(int) i * size + b] = t.buffer().get(java.lang.foreign.ValueLayout.JAVA_BYTE,
                        t.byteOffsetOfFlat(i) + b);
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(value = DType.class, names = "BF16", mode = EnumSource.Mode.EXCLUDE)
    void roundTripIsBitExact(DType dtype) throws IOException {
        Tensor t = filled(arena, dtype, 3, 4, 5);
        Path p = dir.resolve(dtype.text() + ".npy");
        Npy.write(p, t);
        Tensor back = Npy.read(p, arena);
        assertThat(back.dtype()).isEqualTo(dtype);
        assertThat(back.shape()).containsExactly(3, 4, 5);
        assertThat(elementBytes(back)).isEqualTo(elementBytes(t));
        assertThat(Files.size(p)).isEqualTo(128 + 60L * dtype.byteSize());
    }

    @Test
    void headerIsVersion1SixtyFourAlignedAndNumpyShaped() throws IOException {
        Path p = dir.resolve("h.npy");
        Npy.write(p, filled(arena, DType.FP32, 2, 3));
        byte[] bytes = Files.readAllBytes(p);
        assertThat(Arrays.copyOf(bytes, 6)).isEqualTo(NpyHeaderDescriptor.MAGIC);
        assertThat(bytes[6]).isEqualTo((byte) 1);
        assertThat(bytes[7]).isEqualTo((byte) 0);
        int headerLen = (bytes[8] & 0xFF) | (bytes[9] & 0xFF) << 8;
        assertThat((10 + headerLen) % 64).isZero();
        String text = new String(bytes, 10, headerLen, StandardCharsets.ISO_8859_1);
        assertThat(text).startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }").endsWith(" \n");
    }

    @Test
    void shapeTuplesFollowPython() {
        assertThat(NpyHeaderDescriptor.shapeTuple(new long[0])).isEqualTo("()");
        assertThat(NpyHeaderDescriptor.shapeTuple(new long[] {7})).isEqualTo("(7,)");
        assertThat(NpyHeaderDescriptor.shapeTuple(new long[] {0, 3})).isEqualTo("(0, 3)");
    }

    @Test
    void zeroDimensionalAndEmptyRoundTrip() throws IOException {
        Tensor scalar = Tensor.allocate(arena, DType.INT32);
        scalar.setDouble(0, -42);
        Path s = dir.resolve("s.npy");
        Npy.write(s, scalar);
        Tensor sb = Npy.read(s, arena);
        assertThat(sb.rank()).isZero();
        assertThat(sb.getDouble(0)).isEqualTo(-42);

        Path e = dir.resolve("e.npy");
        Npy.write(e, Tensor.allocate(arena, DType.FP16, 4, 0));
        assertThat(Npy.read(e, arena).shape()).containsExactly(4, 0);
        assertThat(Files.size(e)).isEqualTo(128); // header only: 10 + 59-char dict + newline, padded to 128
    }

    @Test
    void bf16IsWrittenAsF4Exactly() throws IOException {
        Tensor t = filled(arena, DType.BF16, 5, 3);
        Path p = dir.resolve("bf16.npy");
        Npy.write(p, t);
        NpyHeader h = Npy.readHeader(p);
        assertThat(h.type()).isEqualTo(NpyType.F4);
        Tensor asF32 = Npy.read(p, arena);
        assertThat(asF32.dtype()).isEqualTo(DType.FP32);
        for (long i = 0; i < t.numel(); i++) {
            // every bf16 is exactly an fp32 whose low 16 bits are zero
            float f = DType.FP32.loadFloat(asF32.buffer(), asF32.byteOffsetOfFlat(i));
            assertThat(Float.floatToRawIntBits(f) & 0xFFFF).isZero();
            assertThat((double) f).isEqualTo(t.getDouble(i));
        }
        Tensor asBf16 = Npy.read(p, arena, DType.BF16, new long[] {5, 3});
        assertThat(elementBytes(asBf16)).isEqualTo(elementBytes(t));
    }

    @Test
    void fp16CanBeWidenedToF4OnRequestButIntegersCannot() throws IOException {
        Tensor t = filled(arena, DType.FP16, 4, 5);
        Path p = dir.resolve("fp16.npy");
        Npy.write(p, t, NpyType.F4);
        assertThat(Npy.readHeader(p).type()).isEqualTo(NpyType.F4);
        Tensor back = Npy.read(p, arena, DType.FP16, new long[] {4, 5});
        assertThat(elementBytes(back)).isEqualTo(elementBytes(t));
        Path q = dir.resolve("int.npy");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Npy.write(q, filled(arena, DType.INT32, 2),
                NpyType.F4)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("cannot write a int32 tensor as <f4; it is written as <i4");
    }

    @Test
    void stridedViewsAreWrittenInTheirCOrder() throws IOException {
        Tensor base = filled(arena, DType.INT32, 4, 6);
        // columns 1..4 of rows 1..2, and the transpose of the whole matrix
        Tensor slice = base.slice(new long[] {1, 1}, new long[] {2, 4});
        Tensor transposed = Tensor.of(base.buffer(), DType.INT32, new long[] {6, 4}, new long[] {1, 6}, 0);
        Path ps = dir.resolve("slice.npy");
        Path pt = dir.resolve("t.npy");
        Npy.write(ps, slice);
        Npy.write(pt, transposed);
        Tensor s = Npy.read(ps, arena);
        Tensor tt = Npy.read(pt, arena);
        for (int r = 0; r < 2; r++) {
            for (int c = 0; c < 4; c++) {
                assertThat(s.getDouble(r * 4 + c)).isEqualTo(rawValue(DType.INT32, (r + 1) * 6 + c + 1));
            }
        }
        for (int r = 0; r < 6; r++) {
            for (int c = 0; c < 4; c++) {
                assertThat(tt.getDouble(r * 4 + c)).isEqualTo(rawValue(DType.INT32, c * 6 + r));
            }
        }
    }

    @Test
    void aWriteThatFailsAfterTheHeaderLeavesThePreviousFileByteForByteAndNoTemporaryFile() throws IOException {
        Path file = dir.resolve("out.npy");
        Npy.write(file, filled(arena, DType.FP32, 3, 5));
        byte[] previous = Files.readAllBytes(file);
        Tensor gone;
        try (Arena closed = Arena.ofConfined()) {
            gone = filled(closed, DType.FP32, 512, 1024);
        }
        // the header goes out, then reading the tensor's memory fails: a write that stops part-way
        assertThatThrownBy(() -> Npy.write(file, gone)).isInstanceOf(IllegalStateException.class);
        assertThat(Files.readAllBytes(file)).isEqualTo(previous);
        try (var names = Files.list(dir)) {
            assertThat(names.map(p -> p.getFileName().toString())).containsExactly("out.npy");
        }
    }

    @Test
    void largeTensorsCrossTheStagingChunk() throws IOException {
        Tensor t = filled(arena, DType.INT64, 300_000); // 2.4 MB: three 1 MiB chunks
        Path p = dir.resolve("big.npy");
        Npy.write(p, t);
        Tensor back = Npy.read(p, arena);
        for (long i = 0; i < t.numel(); i += 997) {
            assertThat(DType.INT64.loadLong(back.buffer(), back.byteOffsetOfFlat(i))).isEqualTo(
                    rawValue(DType.INT64, i));
        }
        assertThat(DType.INT64.loadLong(back.buffer(), back.byteOffsetOfFlat(299_999)))
                .isEqualTo(rawValue(DType.INT64, 299_999));
    }

    @Test
    void version2IsWrittenWhenTheHeaderNeedsIt() throws IOException {
        long[] shape = new long[22_000]; // "1, " × 22000 > 65535 header bytes
        Arrays.fill(shape, 1);
        Tensor t = Tensor.allocate(arena, DType.UINT8, shape);
        t.setDouble(0, 200);
        Path p = dir.resolve("v2.npy");
        Npy.write(p, t);
        NpyHeader h = Npy.readHeader(p);
        assertThat(h.majorVersion()).isEqualTo(2);
        assertThat(h.dataOffset() % 64).isZero();
        assertThat(h.dataOffset()).isGreaterThan(65_535);
        Tensor back = Npy.read(p, arena);
        assertThat(back.rank()).isEqualTo(22_000);
        assertThat(back.getDouble(0)).isEqualTo(200);
    }
}
