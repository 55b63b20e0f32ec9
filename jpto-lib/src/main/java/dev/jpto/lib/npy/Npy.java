package dev.jpto.lib.npy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * Reads and writes numpy {@code .npy} files (format versions 1.0 and 2.0; layout in {@link NpyHeaderDescriptor}).
 *
 * <p>Supported element types ({@link NpyType}): {@code <f4 <f2 <f8 |i1 <i2 <i4 <i8 |u1 |b1}, little-endian, C
 * order. Everything else is rejected with a {@link NpyFormatException} naming the file and what was expected:
 * bad magic, other versions, big-endian or other descrs, {@code fortran_order: True}, header syntax errors, and
 * a data size that differs from what the header promises (truncated or with trailing bytes).
 *
 * <p>Conversions:
 * <ul>
 *   <li>{@code f8} data is read into {@link DType#FP32} tensors — jpto has no fp64 dtype — each value rounded to
 *       the nearest fp32, ties to even; values beyond the fp32 range become ±Inf.</li>
 *   <li>{@link DType#BF16} tensors are written as {@code f4} (exactly: every bf16 is an fp32). An {@code f4}
 *       file is read into a bf16 (or fp16) tensor only when the caller asks for that dtype, rounding to nearest,
 *       ties to even.</li>
 *   <li>{@code |b1} bytes other than 0 read as 1.</li>
 * </ul>
 * Integer data is copied bit for bit (int64 included), never through doubles.
 */
public final class Npy {
    private Npy() {
    }

    /** Reads {@code file} into a new tensor of the file's dtype in an automatic (GC-managed) arena. */
    public static Tensor read(Path file) throws IOException {
        return NpyReader.read(file, Arena.ofAuto(), null, null);
    }

    /** Reads {@code file} into a new tensor of the file's dtype allocated in {@code arena}. */
    public static Tensor read(Path file, Arena arena) throws IOException {
        return NpyReader.read(file, arena, null, null);
    }

    /**
     * Reads {@code file}, requiring a dtype and (unless {@code expectedShape} is null) a shape; an automatic arena
     * holds the result.
     *
     * @throws NpyFormatException if the file's type cannot be read as {@code expected} (see the class comment) or
     *                            its shape differs
     */
    public static Tensor read(Path file, DType expected, long[] expectedShape) throws IOException {
        return NpyReader.read(file, Arena.ofAuto(), expected, expectedShape);
    }

    /** As {@link #read(Path, DType, long[])}, allocating the tensor in {@code arena}. */
    public static Tensor read(Path file, Arena arena, DType expected, long[] expectedShape) throws IOException {
        return NpyReader.read(file, arena, expected, expectedShape);
    }

    /** Reads and checks only the header of {@code file} (including that the data size matches it). */
    public static NpyHeader readHeader(Path file) throws IOException {
        return NpyReader.header(file);
    }

    /**
     * Writes {@code tensor} (any view: strided views are written in their C order) to {@code file}, replacing it.
     * Version 1.0 is written unless the header needs 2.0.
     */
    public static void write(Path file, Tensor tensor) throws IOException {
        NpyWriter.write(file, tensor, NpyType.forTensor(tensor.dtype()));
    }

    /**
     * Writes {@code tensor} as {@code fileType}: its own type ({@link NpyType#forTensor}) or, for fp16 and bf16,
     * {@link NpyType#F4} (exact widening; how {@code --save-tensors} stores half-precision tensors).
     *
     * @throws NpyFormatException for any other pairing, e.g. int32 as f4
     */
    public static void write(Path file, Tensor tensor, NpyType fileType) throws IOException {
        NpyWriter.write(file, tensor, fileType);
    }
}
