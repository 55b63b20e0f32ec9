package dev.jpto.lib.runner;

import dev.jpto.runtime.Platform;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How to run one program: the chip, the input seed, benchmark rounds, where files go, and where the log goes.
 * Ring sizing and DFX flags are not here: they are RunConfig fields, given as {@code runtimeCfg}.
 *
 * @param platform    the chip to run on; carried into the RunConfig of every dispatch, the benchmark's included
 * @param deviceId    the device index, likewise
 * @param seed        seeds every input generator
 * @param benchRounds timed benchmark rounds after the correctness run; 0 = no benchmark
 * @param outputDir   where the work dir (and saved tensors) are kept, replacing an earlier run's files there
 *                    ({@link RunOutputDir}); empty = a temporary work dir, removed after
 * @param saveTensors write {@code inputs/}, {@code outputs/} and {@code golden/} .npy files under outputDir
 * @param out         the log ({@code [RUN] …} lines)
 * @param progress    progress of the benchmark rounds
 * @param chips       chips an L3 program runs on (devices deviceId and up); 0 = the program's default. A chip
 *                    program always runs on one chip.
 * @param memory      the bytes of tensors the run may allocate, checked before the first stage
 * @param reuse       a directory an earlier {@code saveTensors} run wrote: its inputs and golden are taken
 *                    instead of generated and computed ({@link Replay}); empty = generate them
 */
public record RunSpec(Platform platform, int deviceId, long seed, int benchRounds, Optional<Path> outputDir,
                      boolean saveTensors, PrintStream out, Progress progress, int chips, MemoryBudget memory,
                      Optional<Path> reuse) {
    public static final long DEFAULT_SEED = 0;

    public RunSpec {
        Objects.requireNonNull(platform, "platform");
        Objects.requireNonNull(outputDir, "outputDir");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(reuse, "reuse");
        if (deviceId < 0) {
            throw new IllegalArgumentException("device must be >= 0: device=" + deviceId + " (try 0)");
        }
        if (benchRounds < 0) {
            throw new IllegalArgumentException("bench rounds must be >= 0: bench=" + benchRounds + " (try 10)");
        }
        if (chips < 0) {
            throw new IllegalArgumentException("chips must be >= 1 (or 0 for the program's default): chips=" + chips
                    + " (try 2)");
        }
        if (reuse.isPresent() && outputDir.isPresent() && sameDir(reuse.get(), outputDir.get())) {
            throw new IllegalArgumentException("--reuse " + reuse.get() + " is the output dir: the run would replace "
                    + "the tensors it reads; give another --output-dir");
        }
        if (saveTensors && outputDir.isEmpty()) {
            throw new IllegalArgumentException("saving tensors needs an output dir (--output-dir DIR)");
        }
    }

    private static boolean sameDir(Path a, Path b) {
        try {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())
                    || Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compare --reuse " + a + " with the output dir " + b + ": "
                    + e.getMessage(), e);
        }
    }

    /** a2a3sim device 0, seed 0, no benchmark, temporary work dir, log to {@code out}, the default budget. */
    public static RunSpec defaults(PrintStream out) {
        return new RunSpec(Platform.A2A3SIM, 0, DEFAULT_SEED, 0, Optional.empty(), false, out, Progress.none(), 0,
                MemoryBudget.ofPhysicalMemory(), Optional.empty());
    }

    public RunSpec withPlatform(Platform p, int device) {
        return new RunSpec(p, device, seed, benchRounds, outputDir, saveTensors, out, progress, chips, memory, reuse);
    }

    public RunSpec withSeed(long s) {
        return new RunSpec(platform, deviceId, s, benchRounds, outputDir, saveTensors, out, progress, chips, memory,
                reuse);
    }

    public RunSpec withBench(int rounds, Progress p) {
        return new RunSpec(platform, deviceId, seed, rounds, outputDir, saveTensors, out, p, chips, memory, reuse);
    }

    public RunSpec withOutputDir(Path dir, boolean save) {
        return new RunSpec(platform, deviceId, seed, benchRounds, Optional.of(dir), save, out, progress, chips,
                memory, reuse);
    }

    /** Chips for an L3 program (0 = the program's default). */
    public RunSpec withChips(int n) {
        return new RunSpec(platform, deviceId, seed, benchRounds, outputDir, saveTensors, out, progress, n, memory,
                reuse);
    }

    /** Inputs and golden from {@code dir}, saved by an earlier {@code --save-tensors} run ({@code --reuse}). */
    public RunSpec withReuse(Path dir) {
        return new RunSpec(platform, deviceId, seed, benchRounds, outputDir, saveTensors, out, progress, chips, memory,
                Optional.of(dir));
    }

    /** The memory budget ({@code --max-memory}). */
    public RunSpec withMemory(MemoryBudget budget) {
        return new RunSpec(platform, deviceId, seed, benchRounds, outputDir, saveTensors, out, progress, chips,
                budget, reuse);
    }
}
