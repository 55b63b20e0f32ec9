package dev.jpto.lib.npy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/** Reads a checked {@code .npy} file into a new contiguous tensor, converting where the caller asks. */
final class NpyReader {
    private static final ValueLayout.OfFloat FLOAT_LE =
            ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE_LE =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private NpyReader() {
    }

    static NpyHeader header(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return NpyHeaderDescriptor.read(ch, file);
        }
    }

    /**
     * @param expected      dtype the caller needs, or {@code null} for the file's own ({@link NpyType#dtype()})
     * @param expectedShape shape the caller needs, or {@code null} for any
     */
    static Tensor read(Path file, Arena arena, DType expected, long[] expectedShape) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena mapping = Arena.ofConfined()) {
            NpyHeader h = NpyHeaderDescriptor.read(ch, file);
            DType target = expected == null ? h.type().dtype() : expected;
            if (!convertible(h.type(), target)) {
                throw new NpyFormatException(file, "holds " + h.type().descr() + " data (read as "
                        + h.type().dtype().text() + ") but dtype " + target.text() + " was expected; save it as "
                        + NpyType.forTensor(target).descr() + " (a.astype('" + NpyType.forTensor(target).descr()
                        + "'))");
            }
            if (expectedShape != null && !Arrays.equals(expectedShape, h.shape())) {
                throw new NpyFormatException(file, "has shape " + h.shapeTuple() + " but shape "
                        + NpyHeaderDescriptor.shapeTuple(expectedShape) + " was expected");
            }
            Tensor out = Tensor.allocate(arena, target, h.shape());
            if (h.numel() > 0) {
                MemorySegment src = ch.map(FileChannel.MapMode.READ_ONLY, h.dataOffset(), h.dataBytes(), mapping);
                copy(src, h.type(), out.buffer(), target, h.numel());
            }
            return out;
        }
    }

    /** The file's own dtype; f4 into bf16 or fp16 on request (rounded to nearest even). */
    static boolean convertible(NpyType from, DType to) {
        return from.dtype() == to || (from == NpyType.F4 && (to == DType.BF16 || to == DType.FP16));
    }

    private static void copy(MemorySegment src, NpyType from, MemorySegment dst, DType to, long n) {
        if (from == NpyType.F8) {
            for (long i = 0; i < n; i++) {
                to.storeDouble(dst, i * to.byteSize(), src.get(DOUBLE_LE, i * 8));
            }
        } else if (from.dtype() != to) {
            for (long i = 0; i < n; i++) {
                to.storeFloat(dst, i * to.byteSize(), src.get(FLOAT_LE, i * 4));
            }
        } else {
            // Same element type: one bulk copy, swapping bytes only if this machine is big-endian.
            ValueLayout fileLayout = from.fileLayout();
            MemorySegment.copy(src, fileLayout, 0, dst, fileLayout.withOrder(ByteOrder.nativeOrder()), 0, n);
            if (from == NpyType.B1) {
                normalizeBools(dst, n);
            }
        }
    }

    /** numpy writes bools as 0/1; any other non-zero byte is read as true (1), as numpy would treat it. */
    private static void normalizeBools(MemorySegment dst, long n) {
        for (long i = 0; i < n; i++) {
            if (dst.get(ValueLayout.JAVA_BYTE, i) != 0) {
                dst.set(ValueLayout.JAVA_BYTE, i, (byte) 1);
            }
        }
    }
}
