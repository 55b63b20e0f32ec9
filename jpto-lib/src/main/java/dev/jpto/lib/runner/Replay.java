package dev.jpto.lib.runner;

import dev.jpto.compiler.DataFiles;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.ProgramSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code jpto run --reuse DIR}: the inputs, initial values of in-place outputs and golden of an earlier
 * {@code --save-tensors} run, taken instead of generating and computing them. {@link #check} compares everything
 * {@code DIR/meta.json} records with this run and the files on disk before anything is read; any difference is
 * refused, naming the tensor and both values: nothing is silently regenerated.
 */
final class Replay {
    private static final String OPTION = "--reuse";

    private final Path dir;
    private final List<TensorDecl> inputs;
    private final List<TensorDecl> initial;
    private final List<TensorDecl> golden;
    private final long checkNanos;

    private Replay(Path dir, List<TensorDecl> inputs, List<TensorDecl> initial, List<TensorDecl> golden,
                   long checkNanos) {
        this.checkNanos = checkNanos;
        this.dir = dir;
        this.inputs = inputs;
        this.initial = initial;
        this.golden = golden;
    }

    /**
     * Checks that {@code dir} holds what this run of {@code program} with {@code seed} would generate: the same
     * program, preset and seed, every tensor declared as the program declares it, every file present with its
     * recorded size and SHA-256.
     *
     * @throws JitConfigException naming the first difference
     */
    static Replay check(Path dir, ProgramSpec program, long seed) {
        long start = System.nanoTime();
        TensorMeta meta = TensorMeta.read(dir, OPTION + " " + dir);
        Path metaFile = dir.resolve(TensorMeta.FILE);
        same(metaFile, "program", meta.program(), program.programName());
        same(metaFile, "preset", meta.preset(), program.preset());
        same(metaFile, "seed", Long.toString(meta.seed()), Long.toString(seed));
        List<TensorDecl> ins = program.inputs().stream()
                .map(in -> new TensorDecl(in.name(), in.dtype(), in.shape())).toList();
        List<TensorDecl> init = program.outputs().stream()
                .filter(d -> program.outputFills().containsKey(d.name())).toList();
        List<TensorDecl> gold = program.outputs();
        List<TensorDecl> inputDir = new ArrayList<>(ins);
        inputDir.addAll(init);
        List<Saved> saved = new ArrayList<>();
        for (TensorDecl d : inputDir) {
            saved.add(present(dir, meta, RunOutputDir.INPUTS, d));
        }
        for (TensorDecl d : gold) {
            saved.add(present(dir, meta, RunOutputDir.GOLDEN, d));
        }
        // the cheap checks first, for all; then the hashes, in parallel (the slow part at the pro presets)
        saved.parallelStream().forEach(Saved::verifyHash);
        return new Replay(dir, ins, init, gold, System.nanoTime() - start);
    }

    /** The program inputs, read into {@code arena}. */
    Map<String, Tensor> inputs(Arena arena) {
        return TensorFiles.read(dir.resolve(RunOutputDir.INPUTS), inputs, arena);
    }

    /** The initial values of the outputs updated in place that have a fill, read into {@code arena}. */
    Map<String, Tensor> initialOutputs(Arena arena) {
        return TensorFiles.read(dir.resolve(RunOutputDir.INPUTS), initial, arena);
    }

    /** The golden outputs, read into {@code arena}. */
    Map<String, Tensor> golden(Arena arena) {
        return TensorFiles.read(dir.resolve(RunOutputDir.GOLDEN), golden, arena);
    }

    Path dir() {
        return dir;
    }

    /** How long {@link #check} took (reading meta.json, hashing every file): part of what a reuse costs. */
    long checkNanos() {
        return checkNanos;
    }

    private static void same(Path metaFile, String what, String saved, String now) {
        if (!saved.equals(now)) {
            throw refused(metaFile + ": the tensors were saved with " + what + " '" + saved + "', this run has "
                    + what + " '" + now + "'");
        }
    }

    /** A saved file that exists with its recorded declaration and size; its hash is checked next. */
    private record Saved(String role, String name, Path file, TensorMeta.Entry entry) {
        void verifyHash() {
            String hash;
            try {
                hash = ContentHash.sha256(file);
            } catch (IOException x) {
                throw new UncheckedIOException("cannot read " + file + ": " + x.getMessage(), x);
            }
            if (!hash.equals(entry.sha256())) {
                throw refused(role + " '" + name + "': file " + file + " has SHA-256 " + hash + ", "
                        + TensorMeta.FILE + " records " + entry.sha256() + " (changed since it was saved)");
            }
        }
    }

    private static Saved present(Path dir, TensorMeta meta, String sub, TensorDecl d) {
        String role = sub.equals(RunOutputDir.GOLDEN) ? "golden" : "input";
        String declared = d.dtype().text() + Arrays.toString(d.shape());
        Path metaFile = dir.resolve(TensorMeta.FILE);
        TensorMeta.Entry e = meta.entry(sub, d.name()).orElseThrow(() -> refused(metaFile + " has no " + role
                + " '" + d.name() + "' (" + sub + "/" + d.name() + ".npy); this program needs " + declared));
        if (!e.declaration().equals(declared)) {
            throw refused(role + " '" + d.name() + "': saved as " + e.declaration() + ", this program declares "
                    + declared);
        }
        Path f = TensorFiles.file(dir.resolve(sub), d.name());
        try {
            Path real = DataFiles.existingRegular(dir.resolve(sub), f, role + " '" + d.name() + "'");
            long size = Files.size(real);
            if (size != e.bytes()) {
                throw refused(role + " '" + d.name() + "': file " + f + " has " + size + " bytes, "
                        + TensorMeta.FILE + " records " + e.bytes() + (size < e.bytes() ? " (truncated)" : ""));
            }
            return new Saved(role, d.name(), real, e);
        } catch (NoSuchFileException x) {
            throw refused(role + " '" + d.name() + "': file " + f + " is missing (" + metaFile + " records "
                    + e.bytes() + " bytes)");
        } catch (IOException x) {
            throw new UncheckedIOException("cannot read " + f + ": " + x.getMessage(), x);
        }
    }

    private static JitConfigException refused(String why) {
        return new JitConfigException(OPTION + ": " + why + "; nothing is regenerated: save again with "
                + "'jpto run … --save-tensors --output-dir DIR', or run without " + OPTION, null);
    }
}
