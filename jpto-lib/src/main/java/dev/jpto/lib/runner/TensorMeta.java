package dev.jpto.lib.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.jpto.compiler.DataFileException;
import dev.jpto.compiler.DataFiles;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code meta.json} of a directory {@code jpto run --save-tensors} wrote: what run produced it (program, preset,
 * seed) and, per saved input and golden tensor, its declaration, file size and the SHA-256 of its {@code .npy}
 * file, so that {@code jpto run --reuse} can refuse tensors of another run or files changed since. The .npy format
 * is little-endian whatever the machine, so the hashes are platform-independent.
 *
 * @param format  the layout version of this file ({@link #FORMAT})
 * @param program the program's name, e.g. {@code basic.matmul}
 * @param preset  its preset
 * @param seed    the input seed
 * @param tensors one entry per saved file
 */
public record TensorMeta(int format, String program, String preset, long seed, List<Entry> tensors) {
    public static final String FILE = "meta.json";
    static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One saved file.
     *
     * @param dir    the subdirectory: {@code inputs} or {@code golden}
     * @param name   the tensor's name (the file is {@code dir/<name>.npy})
     * @param dtype  its declared dtype ({@code bf16}, …), not the stored one
     * @param shape  its declared shape
     * @param bytes  the file's size
     * @param sha256 the file's SHA-256, lower-case hex
     */
    public record Entry(String dir, String name, String dtype, long[] shape, long bytes, String sha256) {
        /** {@code bf16[4, 8]}, as errors show a declaration. */
        String declaration() {
            return dtype + Arrays.toString(shape);
        }
    }

    public TensorMeta {
        tensors = tensors == null ? null : List.copyOf(tensors);
    }

    /** The entry of {@code dir/name}, if there is one. */
    Optional<Entry> entry(String dir, String name) {
        return tensors.stream().filter(e -> e.dir().equals(dir) && e.name().equals(name)).findFirst();
    }

    /**
     * Hashes the files {@code inputs} and {@code golden} were saved to under {@code saveDir} (by
     * {@link TensorFiles#write}) and writes {@code saveDir/meta.json} atomically.
     */
    static void write(Path saveDir, String program, String preset, long seed, Map<String, Tensor> inputs,
                      Map<String, Tensor> golden) {
        List<Entry> entries = new ArrayList<>();
        addEntries(entries, saveDir, RunOutputDir.INPUTS, inputs);
        addEntries(entries, saveDir, RunOutputDir.GOLDEN, golden);
        Path file = saveDir.resolve(FILE);
        try {
            String text = JSON.writeValueAsString(new TensorMeta(FORMAT, program, preset, seed, entries));
            AtomicFile.writeString(file, text + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void addEntries(List<Entry> entries, Path saveDir, String dir, Map<String, Tensor> tensors) {
        // the files are independent: hash them in parallel (SHA-256 is the slow part at the pro presets)
        List<Entry> hashed = tensors.entrySet().parallelStream().map(t -> {
            Path f = TensorFiles.file(saveDir.resolve(dir), t.getKey());
            try {
                return new Entry(dir, t.getKey(), t.getValue().dtype().text(), t.getValue().shape(), Files.size(f),
                        ContentHash.sha256(f));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot hash " + f + ": " + e.getMessage(), e);
            }
        }).toList();
        entries.addAll(hashed);
    }

    /**
     * Reads {@code saveDir/meta.json}: a regular file inside {@code saveDir}, of bounded size, with every field.
     *
     * @throws JitConfigException naming the file and what is wrong with it ({@code what} names the option)
     */
    static TensorMeta read(Path saveDir, String what) {
        Path file = saveDir.resolve(FILE);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new JitConfigException(what + ": " + file + " is missing: expected a directory written by "
                    + "'jpto run --save-tensors --output-dir DIR' (its meta.json says which run saved the tensors)",
                    null);
        }
        TensorMeta meta;
        try {
            meta = JSON.readValue(DataFiles.readUtf8(saveDir, file, DataFiles.MAX_TEXT_BYTES,
                    "the saved tensors' meta.json"), TensorMeta.class);
        } catch (DataFileException e) {
            throw new JitConfigException(what + ": " + e.getMessage(), e);
        } catch (JsonProcessingException e) {
            throw new JitConfigException(what + ": " + file + " is not a jpto meta.json: "
                    + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (meta.format() != FORMAT || meta.program() == null || meta.preset() == null || meta.tensors() == null
                || meta.tensors().stream().anyMatch(e -> e.dir() == null || e.name() == null || e.dtype() == null
                || e.shape() == null || e.sha256() == null)) {
            throw new JitConfigException(what + ": " + file + " is not a jpto meta.json of format " + FORMAT
                    + " (format, program, preset, seed, tensors with dir, name, dtype, shape, bytes, sha256)", null);
        }
        return meta;
    }
}
