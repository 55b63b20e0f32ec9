package dev.jpto.lib.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Hand-made corrupt and unusual headers: each is rejected with the file name and the rule, or read. */
class NpyHeaderCheckTest {
    @TempDir
    Path dir;

    /** A file with the given version and dict text (a newline is appended), followed by {@code dataBytes}. */
    private Path file(String name, int major, int minor, String dict, int dataBytes) throws IOException {
        byte[] text = (dict + "\n").getBytes(StandardCharsets.ISO_8859_1);
        int preamble = major == 1 ? 10 : 12;
        ByteBuffer b = ByteBuffer.allocate(preamble + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(NpyHeaderDescriptor.MAGIC).put((byte) major).put((byte) minor);
        if (major == 1) {
            b.putShort((short) text.length);
        } else {
            b.putInt(text.length);
        }
        b.put(text);
        Path p = dir.resolve(name);
        Files.write(p, b.array());
        return p;
    }

    private static final String OK_DICT = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

    @Test
    void wellFormedHandMadeFileReads() throws IOException {
        Path p = file("ok.npy", 1, 0, OK_DICT, 24);
        Tensor t = Npy.read(p);
        assertThat(t.shape()).containsExactly(2, 3);
    }

    @Test
    void oldSixteenByteAlignmentDoubleQuotesKeyOrderAndLongSuffixAreAccepted() throws IOException {
        Path p = file("py2.npy", 1, 0, "{\"shape\": (2L, 3L), \"fortran_order\": False, \"descr\": \"<i2\"}", 12);
        assertThat(Npy.readHeader(p).shape()).containsExactly(2, 3);
        assertThat(Npy.readHeader(p).type()).isEqualTo(NpyType.I2);
    }

    @Test
    void badMagic() throws IOException {
        Path p = dir.resolve("magic.npy");
        Files.write(p, "PK\u0003\u0004 this is a zip, not an npy".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("magic.npy").hasMessageContaining("bad magic bytes 50 4b 03 04")
                .hasMessageContaining("expected 93 4e 55 4d 50 59");
    }

    @Test
    void tooShortForAPreamble() throws IOException {
        Path p = dir.resolve("short.npy");
        Files.write(p, new byte[] {(byte) 0x93, 'N', 'U'});
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("short.npy").hasMessageContaining("file is 3 bytes");
    }

    @ParameterizedTest
    @CsvSource({"3, 0", "1, 1", "0, 0"})
    void unsupportedVersion(int major, int minor) throws IOException {
        Path p = file("v.npy", major == 3 ? 2 : 1, 0, OK_DICT, 24);
        byte[] bytes = Files.readAllBytes(p);
        bytes[6] = (byte) major;
        bytes[7] = (byte) minor;
        Files.write(p, bytes);
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("v.npy")
                .hasMessageContaining("unsupported .npy format version " + major + "." + minor)
                .hasMessageContaining("reads versions 1.0 and 2.0");
    }

    @Test
    void truncatedData() throws IOException {
        Path p = file("trunc.npy", 1, 0, OK_DICT, 23);
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("trunc.npy").hasMessageContaining("truncated data")
                .hasMessageContaining("needs exactly 24 data bytes").hasMessageContaining("the file has 23");
    }

    @Test
    void trailingBytes() throws IOException {
        Path p = file("long.npy", 1, 0, OK_DICT, 25);
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("unexpected trailing bytes").hasMessageContaining("the file has 25");
    }

    @Test
    void truncatedHeader() throws IOException {
        Path p = file("hdr.npy", 1, 0, OK_DICT, 0);
        byte[] bytes = Files.readAllBytes(p);
        Files.write(p, java.util.Arrays.copyOf(bytes, 40));
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("hdr.npy").hasMessageContaining("truncated header");
    }

    @Test
    void headerWithoutFinalNewline() throws IOException {
        Path p = file("nl.npy", 1, 0, OK_DICT, 24);
        byte[] bytes = Files.readAllBytes(p);
        bytes[10 + OK_DICT.length()] = ' ';
        Files.write(p, bytes);
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("nl.npy").hasMessageContaining("must end with '\\n'");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{'descr': '<f4', 'fortran_order': False}                                  | lacks 'shape'",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}         | unexpected key 'x'",
        "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}   | key 'descr' appears twice",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (6)}                    | a 1-d shape is written '(n,)'",
        "{'descr': '<f4', 'fortran_order': false, 'shape': (6,)}                   | expected True or False",
        "{'descr': '<f4', 'fortran_order': False, 'shape': [6]}                    | shape must be a tuple",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (-6,)}                  | must be non-negative",
        "{'descr': '<f4' 'fortran_order': False, 'shape': (6,)}                    | expected ',' or '}'",
        "{'descr': '<f4, 'fortran_order': False, 'shape': (6,)} | expected ',' or '}' after the value of 'descr'",
        "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,)}          | structured (record) dtypes",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (6,)} junk | only spaces and one final newline",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (6, | (found '\\n'): expected a non-negative int",
        "('descr', '<f4')                                                          | expected '{'",
    })
    void headerParseErrors(String dict, String expected) throws IOException {
        Path p = file("parse.npy", 1, 0, dict.strip(), 24);
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageStartingWith(p.toString() + ": ")
                .hasMessageContaining(expected);
    }

    @Test
    void twoByteTypeWithPipeOrderIsRejected() throws IOException {
        Path p = file("pipe.npy", 1, 0, "{'descr': '|i2', 'fortran_order': False, 'shape': (2,), }", 4);
        assertThatThrownBy(() -> Npy.read(p)).isInstanceOf(NpyFormatException.class)
                .hasMessageContaining("descr '|i2' is not supported");
    }
}
