package dev.jpto.runtime.dfx;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one {@code .npy} writer the runtime needs (argument dumps); jpto-lib's {@code Npy} is the full reader and
 * writer, which the runtime cannot use (the library sits above it). Same conventions: format 1.0, C order,
 * little-endian, bf16 widened exactly to {@code <f4}.
 *
 * <pre>
 * offset 0   \x93NUMPY        magic (6 bytes)
 *        6   0x01 0x00        version 1.0
 *        8   uint16 LE        header length H
 *       10   H bytes          python dict literal, space padded, '\n' last; 10 + H is a multiple of 64
 *  10 + H    data             elements in C order
 * </pre>
 */
final class NpyFile {
    private static final int ALIGN = 64;
    private static final int PREAMBLE = 10;
    private static final ValueLayout.OfFloat FLOAT_LE = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private NpyFile() {
    }

    /** The numpy descr {@code t} is written as, e.g. {@code <f4}, {@code |i1}. */
    static String descr(DType t) {
        int size = t == DType.BF16 ? 4 : t.byteSize();
        return (size == 1 ? "|" : "<") + t.npyCode();
    }

    static byte[] header(DType dtype, long[] shape) {
        StringBuilder dims = new StringBuilder();
        for (long e : shape) {
            dims.append(e).append(", ");
        }
        if (shape.length > 1) {
            dims.setLength(dims.length() - 2);
        } else if (shape.length == 1) {
            dims.setLength(dims.length() - 1);
        }
        String dict = "{'descr': '" + descr(dtype) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
        int unpadded = PREAMBLE + dict.length() + 1;
        int total = (unpadded + ALIGN - 1) / ALIGN * ALIGN;
        byte[] out = new byte[total];
        byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
        System.arraycopy(magic, 0, out, 0, magic.length);
        int len = total - PREAMBLE;
        out[8] = (byte) len;
        out[9] = (byte) (len >>> 8);
        byte[] d = dict.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(d, 0, out, PREAMBLE, d.length);
        for (int i = PREAMBLE + d.length; i < total - 1; i++) {
            out[i] = ' ';
        }
        out[total - 1] = '\n';
        return out;
    }

    /** Writes {@code t} (any view) to {@code file}, replacing it atomically; returns the bytes written. */
    static long write(Path file, Tensor t) throws IOException {
        byte[] header = header(t.dtype(), t.shape());
        AtomicFile.write(file, tmp -> writeTo(tmp, header, t));
        int itemSize = t.dtype() == DType.BF16 ? 4 : t.dtype().byteSize();
        return header.length + t.numel() * itemSize;
    }

    private static void writeTo(Path tmp, byte[] header, Tensor t) throws IOException {
        DType dtype = t.dtype();
        int itemSize = dtype == DType.BF16 ? 4 : dtype.byteSize();
        long n = t.numel();
        long dataBytes = n * itemSize;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(ch, ByteBuffer.wrap(header));
            MemorySegment buf = t.buffer();
            if (n == 0) {
                return; // an empty tensor is its header
            }
            if (dtype != DType.BF16 && t.isContiguous()) {
                // memory is little-endian like the file: the view's bytes are the data
                writeFully(ch, buf.asSlice(t.byteOffsetOfFlat(0), dataBytes).asByteBuffer());
            } else {
                int chunk = (int) Math.min(Math.max(dataBytes, 1), 1 << 20) / itemSize * itemSize;
                ByteBuffer staging = ByteBuffer.allocate(Math.max(chunk, itemSize));
                MemorySegment st = MemorySegment.ofBuffer(staging);
                for (long i = 0; i < n; i++) {
                    if (staging.position() + itemSize > staging.capacity()) {
                        staging.flip();
                        writeFully(ch, staging);
                        staging.clear();
                    }
                    long at = t.byteOffsetOfFlat(i);
                    if (dtype == DType.BF16) {
                        st.set(FLOAT_LE, staging.position(), dtype.loadFloat(buf, at));
                    } else {
                        MemorySegment.copy(buf, at, st, staging.position(), itemSize);
                    }
                    staging.position(staging.position() + itemSize);
                }
                staging.flip();
                writeFully(ch, staging);
            }
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
