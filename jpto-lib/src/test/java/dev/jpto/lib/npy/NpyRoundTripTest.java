package dev.jpto.lib.npy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** Any dtype, any shape (rank 0–4, empty extents included), arbitrary bits: write then read is bit-exact. */
class NpyRoundTripTest {
    private static Path dir;

    @BeforeContainer
    static void makeDir() throws IOException {
        dir = Files.createTempDirectory("npy-props");
    }

    @AfterContainer
    static void removeDir() throws IOException {
        try (var files = Files.list(dir)) {
            files.forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        Files.delete(dir);
    }

    @Provide
    Arbitrary<List<Long>> shapes() {
        return Arbitraries.longs().between(0, 5).list().ofMaxSize(4);
    }

    @Property(tries = 150)
    void writeThenReadIsBitExact(@ForAll DType dtype, @ForAll("shapes") List<Long> shapeList, @ForAll long seed)
            throws IOException {
        long[] shape = shapeList.stream().mapToLong(Long::longValue).toArray();
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Tensor.allocate(arena, dtype, shape);
            Random rnd = new Random(seed);
            byte[] raw = new byte[(int) t.byteSize()];
            rnd.nextBytes(raw);
            for (int i = 0; i < raw.length; i++) {
                if (dtype == DType.BOOL) {
                    raw[i] &= 1;
                } else if (dtype == DType.BF16 && i % 2 == 1) {
                    raw[i] &= (byte) 0xBF; // keep bf16 exponents below all-ones: no NaN payloads to requiet
                }
            }
            t.buffer().asSlice(0, raw.length).copyFrom(java.lang.foreign.MemorySegment.ofArray(raw));
            Path p = dir.resolve("t.npy");
            Npy.write(p, t);
            Tensor back = Npy.read(p, arena, dtype, shape);
            assertThat(back.buffer().asSlice(0, raw.length).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(raw);
            // header padded to 64 bytes, then numel × file item size (bf16 is written as 4-byte f4)
            long dataBytes = t.numel() * NpyType.forTensor(dtype).itemSize();
            assertThat(Files.size(p) % 64).isEqualTo(dataBytes % 64);
            assertThat(Files.size(p) - dataBytes).isEqualTo(Npy.readHeader(p).dataOffset());
        }
    }
}
