package dev.jpto.lib.npy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * Layout of a {@code .npy} file header (numpy format versions 1.0 and 2.0), the one place that knows its offsets.
 *
 * <pre>
 *  offset   size   field
 *  ------   ----   -----------------------------------------------------------------------------
 *  0        6      MAGIC        0x93 'N' 'U' 'M' 'P' 'Y'
 *  6        1      MAJOR        1 or 2
 *  7        1      MINOR        0
 *  8        2 | 4  HEADER_LEN   little-endian u2 (v1.0) or u4 (v2.0): byte length of DICT
 *  10 | 12  n      DICT         Latin-1 text of a Python dict literal, e.g.
 *                                 {'descr': '&lt;f4', 'fortran_order': False, 'shape': (2, 3), }
 *                               padded with spaces and ended by '\n' so that the data starts on a
 *                               multiple of 64 (numpy before 1.16 aligned to 16; both are read)
 *  10|12+n  ...    DATA         numel × itemsize bytes, little-endian, C order
 * </pre>
 *
 * <p>Keys of DICT are exactly {@code descr} (a type string such as {@code '<f4'}), {@code fortran_order} (a
 * bool) and {@code shape} (a tuple of non-negative ints; {@code ()} for a 0-d array, {@code (3,)} for 1-d).
 * jpto writes version 1.0 unless DICT does not fit a u2 length, then 2.0.
 */
public final class NpyHeaderDescriptor {
    /** The six magic bytes every {@code .npy} file starts with. */
    public static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    public static final int MAGIC_OFFSET = 0;
    public static final int MAJOR_OFFSET = 6;
    public static final int MINOR_OFFSET = 7;
    public static final int HEADER_LEN_OFFSET = 8;
    /** Bytes before DICT in version 1.0 (u2 length) and 2.0 (u4 length). */
    public static final int PREAMBLE_V1 = 10;
    public static final int PREAMBLE_V2 = 12;
    /** Data alignment jpto writes (numpy's {@code ARRAY_ALIGN}). */
    public static final int ALIGNMENT = 64;
    /** Largest DICT a version 1.0 header can hold. */
    public static final int MAX_V1_HEADER_LEN = 0xFFFF;
    /** Largest DICT jpto reads (a rank-64 shape needs about 1.5 KiB; this only guards against corrupt lengths). */
    public static final int MAX_HEADER_LEN = 16 << 20;

    private NpyHeaderDescriptor() {
    }

    /** Encodes the header (preamble and padded DICT) for an array of {@code type} and {@code shape}. */
    public static byte[] encode(NpyType type, long[] shape) {
        String dict = "{'descr': '" + type.descr() + "', 'fortran_order': False, 'shape': " + shapeTuple(shape)
                + ", }";
        int major = padded(PREAMBLE_V1, dict.length()) - PREAMBLE_V1 <= MAX_V1_HEADER_LEN ? 1 : 2;
        int preamble = major == 1 ? PREAMBLE_V1 : PREAMBLE_V2;
        int total = padded(preamble, dict.length());
        int headerLen = total - preamble;
        ByteBuffer out = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).put((byte) major).put((byte) 0);
        if (major == 1) {
            out.putShort((short) headerLen);
        } else {
            out.putInt(headerLen);
        }
        out.put(dict.getBytes(StandardCharsets.ISO_8859_1));
        while (out.position() < total - 1) {
            out.put((byte) ' ');
        }
        out.put((byte) '\n');
        return out.array();
    }

    /** Total header size: preamble + dict + at least the newline, rounded up to {@link #ALIGNMENT}. */
    private static int padded(int preamble, int dictLength) {
        int unpadded = preamble + dictLength + 1;
        return (unpadded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /**
     * Reads and checks the header of {@code file} through {@code channel} (positioned anywhere; reads are
     * absolute): magic, version, header length, DICT syntax and keys, type, C order, and that the file holds
     * exactly the data the header promises.
     */
    public static NpyHeader read(FileChannel channel, Path file) throws IOException {
        long size = channel.size();
        if (size < PREAMBLE_V1) {
            throw new NpyFormatException(file, "file is " + size + " bytes, shorter than the " + PREAMBLE_V1
                    + "-byte .npy preamble (magic, version, header length); is it a .npy file?");
        }
        ByteBuffer pre = readFully(channel, file, 0, PREAMBLE_V2 <= size ? PREAMBLE_V2 : PREAMBLE_V1);
        byte[] magic = new byte[MAGIC.length];
        pre.get(MAGIC_OFFSET, magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new NpyFormatException(file, "bad magic bytes " + HexFormat.ofDelimiter(" ").formatHex(magic)
                    + ", expected " + HexFormat.ofDelimiter(" ").formatHex(MAGIC) + " (\\x93NUMPY); not a .npy file");
        }
        int major = pre.get(MAJOR_OFFSET) & 0xFF;
        int minor = pre.get(MINOR_OFFSET) & 0xFF;
        if ((major != 1 && major != 2) || minor != 0) {
            throw new NpyFormatException(file, "unsupported .npy format version " + major + "." + minor
                    + "; jpto reads versions 1.0 and 2.0 (re-save with numpy.save, which writes 1.0)");
        }
        int preamble = major == 1 ? PREAMBLE_V1 : PREAMBLE_V2;
        if (size < preamble) {
            throw new NpyFormatException(file, "truncated header: version " + major + ".0 needs a " + preamble
                    + "-byte preamble, the file has " + size + " bytes");
        }
        long headerLen = major == 1 ? pre.getShort(HEADER_LEN_OFFSET) & 0xFFFFL
                : pre.getInt(HEADER_LEN_OFFSET) & 0xFFFF_FFFFL;
        if (headerLen > MAX_HEADER_LEN) {
            throw new NpyFormatException(file, "header length field says " + headerLen + " bytes, more than the "
                    + MAX_HEADER_LEN + " jpto accepts; the file is corrupt or not a .npy array");
        }
        long dataOffset = preamble + headerLen;
        if (dataOffset > size) {
            throw new NpyFormatException(file, "truncated header: header length field says " + headerLen
                    + " bytes of header text after byte " + preamble + ", but the file has only " + size + " bytes");
        }
        ByteBuffer headerBytes = readFully(channel, file, preamble, (int) headerLen);
        String text = StandardCharsets.ISO_8859_1.decode(headerBytes).toString();
        if (!text.endsWith("\n")) {
            throw new NpyFormatException(file, "header text must end with '\\n' (numpy pads it with spaces and a"
                    + " newline); found " + quote(text.isEmpty() ? "" : text.substring(text.length() - 1))
                    + " at the end of " + quote(text));
        }
        NpyDictParser.Entries dict = NpyDictParser.parse(text, file);
        if (dict.fortranOrder()) {
            throw new NpyFormatException(file, "fortran_order is True; jpto reads C-order arrays only (expected"
                    + " 'fortran_order': False; save np.ascontiguousarray(a) instead)");
        }
        NpyType type = NpyType.fromDescr(dict.descr(), file);
        NpyHeader header = new NpyHeader(type, dict.shape(), major, dataOffset);
        long need;
        try {
            need = header.dataBytes();
        } catch (ArithmeticException e) {
            throw new NpyFormatException(file, "shape " + header.shapeTuple() + " of " + type.descr()
                    + " overflows a 64-bit byte count");
        }
        long have = size - dataOffset;
        if (have != need) {
            throw new NpyFormatException(file, (have < need ? "truncated data" : "unexpected trailing bytes")
                    + ": shape " + header.shapeTuple() + " of " + type.descr() + " needs exactly " + need
                    + " data bytes after the " + dataOffset + "-byte header, the file has " + have);
        }
        return header;
    }

    /** Python's repr of a tuple of ints: {@code ()}, {@code (3,)}, {@code (2, 3)}. */
    static String shapeTuple(long[] shape) {
        if (shape.length == 1) {
            return "(" + shape[0] + ",)";
        }
        StringBuilder sb = new StringBuilder("(");
        for (int d = 0; d < shape.length; d++) {
            sb.append(d == 0 ? "" : ", ").append(shape[d]);
        }
        return sb.append(')').toString();
    }

    static String quote(String s) {
        String shown = s.length() > 200 ? s.substring(0, 200) + "…" : s;
        return "'" + shown.replace("\n", "\\n") + "'";
    }

    private static ByteBuffer readFully(FileChannel channel, Path file, long position, int length)
            throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buf.hasRemaining()) {
            if (channel.read(buf, position + buf.position()) < 0) {
                throw new NpyFormatException(file, "unexpected end of file at byte " + (position + buf.position())
                        + " (did the file change while it was read?)");
            }
        }
        return buf.flip();
    }
}
