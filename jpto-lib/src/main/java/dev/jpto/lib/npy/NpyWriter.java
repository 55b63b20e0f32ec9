package dev.jpto.lib.npy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes any tensor view (strided or not) as a C-order, little-endian {@code .npy} file, atomically: a failed write
 * leaves the previous file under the name untouched ({@link AtomicFile}).
 */
final class NpyWriter {
    /** Data goes out through a staging buffer of this many bytes. */
    private static final long CHUNK_BYTES = 1 << 20;
    private static final ValueLayout.OfFloat FLOAT_LE =
            ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private NpyWriter() {
    }

    static void write(Path file, Tensor t, NpyType type) throws IOException {
        if (type != NpyType.forTensor(t.dtype()) && !(type == NpyType.F4 && t.dtype().isFloat())) {
            throw new NpyFormatException(file, "cannot write a " + t.dtype().text() + " tensor as "
                    + type.descr() + "; it is written as " + NpyType.forTensor(t.dtype()).descr()
                    + (t.dtype().isFloat() ? " or, widened exactly, as <f4" : ""));
        }
        byte[] header = NpyHeaderDescriptor.encode(type, t.shape());
        AtomicFile.write(file, tmp -> writeTo(tmp, header, t, type));
    }

    private static void writeTo(Path tmp, byte[] header, Tensor t, NpyType type) throws IOException {
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
             Arena arena = Arena.ofConfined()) {
            writeFully(ch, ByteBuffer.wrap(header));
            long n = t.numel();
            int size = type.itemSize();
            long chunkElems = Math.max(1, Math.min(n, CHUNK_BYTES / size));
            MemorySegment chunk = arena.allocate(chunkElems * size);
            for (long done = 0; done < n; ) {
                long k = Math.min(chunkElems, n - done);
                stage(t, type, done, k, chunk);
                writeFully(ch, chunk.asSlice(0, k * size).asByteBuffer());
                done += k;
            }
        }
    }

    /** Converts elements {@code [first, first+count)} (C order of the view) into file bytes in {@code chunk}. */
    private static void stage(Tensor t, NpyType type, long first, long count, MemorySegment chunk) {
        MemorySegment buf = t.buffer();
        DType dtype = t.dtype();
        if (dtype != type.dtype()) { // bf16 or fp16 widened to f4: exact
            for (long j = 0; j < count; j++) {
                chunk.set(FLOAT_LE, j * 4, dtype.loadFloat(buf, t.byteOffsetOfFlat(first + j)));
            }
            return;
        }
        ValueLayout fileLayout = type.fileLayout();
        ValueLayout memLayout = fileLayout.withOrder(ByteOrder.nativeOrder());
        if (t.isContiguous()) {
            MemorySegment.copy(buf, memLayout, t.byteOffsetOfFlat(first), chunk, fileLayout, 0, count);
            return;
        }
        for (long j = 0; j < count; j++) {
            MemorySegment.copy(buf, memLayout, t.byteOffsetOfFlat(first + j), chunk, fileLayout, j * type.itemSize(),
                    1);
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            ch.write(bytes);
        }
    }
}
