package dev.jpto.lib.runner;

import dev.jpto.compiler.DataFiles;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.npy.Npy;
import dev.jpto.lib.npy.NpyType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tensors as a directory of {@code <name>.npy} files: how {@code --save-tensors} writes inputs, outputs and golden
 * and how {@code jpto exec} reads inputs. bf16 and fp16 are written as float32 ({@code <f4}, an exact widening:
 * numpy has no bfloat16); reading back with the declared dtype rounds to nearest even, which restores the bits.
 */
public final class TensorFiles {
    private static final long HEADER_BLOCK = 4096;

    private TensorFiles() {
    }

    /**
     * {@code dir/<name>.npy}. A tensor name comes from data (a work dir), so it must be an identifier
     * ({@link Verifier#IDENTIFIER_RULE}), and the file, if it exists, must resolve inside {@code dir}: a name or a
     * link never leads a read or a write elsewhere.
     *
     * @throws IllegalArgumentException naming the tensor and the directory
     */
    public static Path file(Path dir, String name) {
        Path f = named(dir, name);
        DataFiles.insideForWrite(dir, f, "the file of tensor '" + name + "' in " + dir);
        return f;
    }

    private static Path named(Path dir, String name) {
        if (!Verifier.isIdentifier(name)) {
            throw new IllegalArgumentException("tensor name '" + name + "' cannot name a file in " + dir
                    + ": expected an identifier (" + Verifier.IDENTIFIER_RULE + ")");
        }
        return dir.resolve(name + ".npy");
    }

    /**
     * Writes every tensor to {@code dir/<name>.npy}, creating the dir.
     *
     * @throws IllegalArgumentException if {@code dir} exists and is not a directory (nothing is written)
     */
    public static void write(Path dir, Map<String, Tensor> tensors) {
        requireDirectory(dir);
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
                Tensor t = e.getValue();
                Npy.write(file(dir, e.getKey()), t, storedType(t.dtype()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write tensors to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** How a tensor of {@code dtype} is stored: its own type, or float32 for bf16 and fp16 (numpy has no bf16). */
    static NpyType storedType(DType dtype) {
        return dtype == DType.BF16 || dtype == DType.FP16 ? NpyType.F4 : NpyType.forTensor(dtype);
    }

    /**
     * The bytes {@link #write} puts on disk for {@code decl}: its data as stored, plus a block for the header (a
     * header is a few dozen bytes; the file system allocates whole blocks).
     *
     * @throws ArithmeticException if the size does not fit in a long
     */
    public static long fileBytes(TensorDecl decl) {
        return Math.addExact(Math.multiplyExact(decl.numel(), storedType(decl.dtype()).itemSize()), HEADER_BLOCK);
    }

    /** Refuses a {@code dir} that exists as something other than a directory (it is created if missing). */
    public static void requireDirectory(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory: expected a directory for <name>.npy files "
                    + "(created if missing)");
        }
    }

    /**
     * Reads {@code dir/<name>.npy} for every declared tensor into {@code arena}, checked against the declared dtype
     * and shape; the header must declare that shape and the data length must match it before anything is allocated
     * ({@link Npy}), so the declaration bounds what is read.
     *
     * @throws IllegalArgumentException for a missing file, one outside {@code dir} (through a link) or not a
     *                                  regular file, or one whose dtype or shape does not fit, naming it
     */
    public static Map<String, Tensor> read(Path dir, List<TensorDecl> decls, Arena arena) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (TensorDecl d : decls) {
            Path f = named(dir, d.name());
            Path real;
            try {
                // a regular file inside dir, checked before opening it: a FIFO would block the read
                real = DataFiles.existingRegular(dir, f, "input " + d + " in " + dir);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("missing input file " + f + " for " + d
                        + " (exec reads one <name>.npy per program input)", e);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + f + " as " + d + ": " + e.getMessage(), e);
            }
            try {
                out.put(d.name(), Npy.read(real, arena, d.dtype(), d.shape()));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + f + " as " + d + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
