package dev.jpto.lib.runner;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.npy.Npy;
import dev.jpto.lib.npy.NpyType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
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

    public static Path file(Path dir, String name) {
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
     * and shape.
     *
     * @throws IllegalArgumentException for a missing file, or one whose dtype or shape does not fit, naming it
     */
    public static Map<String, Tensor> read(Path dir, List<TensorDecl> decls, Arena arena) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (TensorDecl d : decls) {
            Path f = file(dir, d.name());
            if (!Files.isRegularFile(f)) {
                throw new IllegalArgumentException((Files.exists(f) ? "input " + f + " is not a regular file"
                        : "missing input file " + f) + " for " + d + " (exec reads one <name>.npy per program input)");
            }
            try {
                out.put(d.name(), Npy.read(f, arena, d.dtype(), d.shape()));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + f + " as " + d + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
