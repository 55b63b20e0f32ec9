package dev.jpto.tools.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.engine.VectorEngine;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The {@code jpto bench matmul} comparison: the Vector API engine and the scalar reference engine run the same
 * tiled matmul ({@link TiledMatmul}) on the same inputs in one process. The vector engine runs the whole problem
 * (after warm-up runs; the best of the timed runs, by CPU time of the thread and by wall clock); the scalar
 * engine, about a hundred times slower, runs only the first few C tiles of it (same tiles, same call pattern).
 * The C tiles both engines computed are compared bit for bit (the engines agree exactly on matmul, fp32 sums
 * and int8 → int32 sums alike).
 */
public final class MatmulBenchmark {
    private MatmulBenchmark() {
    }

    /**
     * @param size         problem edge (M = N = K), a multiple of {@code tile}
     * @param dtype        input dtype of A and B: fp32, bf16, fp16 (C is fp32) or int8 (C is int32)
     * @param tile         tile edge of every matmul call
     * @param warmups      untimed vector runs before timing (JIT)
     * @param runs         timed vector runs
     * @param scalarCTiles C tiles the scalar engine computes (each is size/tile matmul calls)
     * @param peak         the nominal peak (base clock or {@code --ghz}); the headline uses the measured one
     */
    public record Options(int size, DType dtype, int tile, int warmups, int runs, int scalarCTiles, CpuPeak peak) {
        /** Largest size: its four size × size tensors (A, B and both engines' C) take at most 4 GiB. */
        public static final int MAX_SIZE = 16384;

        public Options {
            TiledMatmul.checkSize(size, tile);
            if (size > MAX_SIZE) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "size must be at most %d (4 tensors of"
                        + " size x size): size=%d would take %.1f GiB (try 4096)", MAX_SIZE, size,
                        4.0 * size * size * 4 / (1L << 30)));
            }
            if (dtype != DType.FP32 && dtype != DType.BF16 && dtype != DType.FP16 && dtype != DType.INT8) {
                throw new IllegalArgumentException("dtype must be fp32, bf16, fp16 or int8 for the matmul benchmark:"
                        + " dtype=" + dtype.text() + " (try fp32)");
            }
            positive("runs", runs);
            positive("scalar tiles", scalarCTiles);
            if (warmups < 0) {
                throw new IllegalArgumentException("warmups must be >= 0: warmups=" + warmups + " (try 3)");
            }
            int all = (size / tile) * (size / tile);
            if (scalarCTiles > all) {
                throw new IllegalArgumentException("scalar tiles must be at most the " + all + " C tiles of a "
                        + size + "^3 problem: scalar tiles=" + scalarCTiles + " (try 1)");
            }
        }

        /** "GOP/s" for int8 (integer multiply-adds), "GFLOP/s" for the float types. */
        public String unit() {
            return dtype.isFloat() ? "GFLOP/s" : "GOP/s";
        }

        private static void positive(String name, int v) {
            if (v < 1) {
                throw new IllegalArgumentException(name + " must be >= 1: " + name + "=" + v + " (try 1)");
            }
        }
    }

    /**
     * Timings of one engine: the work measured and, over the timed runs, the best and median wall-clock seconds
     * and the best CPU seconds of the benchmark thread. CPU time leaves out the time the thread waited for a
     * core, so on a busy machine it still measures what one core does; on an idle one the two agree.
     */
    public record Timing(String engine, int cTiles, long matmulCalls, long flops, double bestSeconds, double medianSeconds,
                         double bestCpuSeconds, long allocatedBytes) {
        /** Heap bytes the benchmark thread allocated per matmul call in a timed run (loads and stores included). */
        public double bytesPerCall() {
            return (double) allocatedBytes / matmulCalls;
        }

        /** GFLOP/s of the best run by CPU time of the thread. */
        public double gflops() {
            return flops / bestCpuSeconds / 1e9;
        }

        /** GFLOP/s of the best run by wall-clock time. */
        public double wallGflops() {
            return flops / bestSeconds / 1e9;
        }
    }

    /**
     * @param fmaProbeGflops the fp32 FMA throughput measured on registers ({@link FmaProbe}): the ceiling at
     *                       the clock the core really runs, and the peak the headline uses
     */
    public record Result(Options options, Timing vector, Timing scalar, boolean agree, CpuPeak peak,
                         double fmaProbeGflops) {
        public double ratio() {
            return vector.gflops() / scalar.gflops();
        }

        /** The vector engine's rate as a percentage of the measured FMA ceiling. */
        public double percentOfProbe() {
            return 100.0 * vector.gflops() / fmaProbeGflops;
        }

        /** The vector engine's rate as a percentage of the nominal peak (which turbo can exceed). */
        public double percentOfPeak() {
            return 100.0 * vector.gflops() / peak.gflops();
        }

        /** The report printed by {@code jpto bench matmul}. */
        public List<String> lines() {
            Options o = options;
            int kTiles = o.size() / o.tile();
            String unit = o.unit();
            String acc = TiledMatmul.accumulator(o.dtype()).text();
            List<String> out = new ArrayList<>();
            out.add(String.format(Locale.ROOT, "[BENCH] matmul %s %dx%dx%d as %dx%d tiles: each %s C tile accumulates"
                    + " %d matmul calls (%dx%d · %dx%d), loading its A and B tiles from the row-major tensors first",
                    o.dtype().text(), o.size(), o.size(), o.size(), o.tile(), o.tile(), acc, kTiles, o.tile(), o.tile(),
                    o.tile(), o.tile()));
            out.add(String.format(Locale.ROOT, "  vector  %8.2f %s  VectorEngine, all %d C tiles (%d matmul calls),"
                    + " best of %d runs: %.2f ms CPU; wall clock best %.2f ms (%.2f %s), median %.2f ms",
                    vector.gflops(), unit, vector.cTiles(), vector.matmulCalls(), o.runs(), vector.bestCpuSeconds() * 1e3,
                    vector.bestSeconds() * 1e3, vector.wallGflops(), unit, vector.medianSeconds() * 1e3));
            out.add(String.format(Locale.ROOT, "  scalar  %8.4f %s  ScalarEngine, only the first %d of %d C tiles"
                    + " (%d matmul calls, %.1f M%s: the reference is too slow for the whole problem), best of %d runs:"
                    + " %.1f ms CPU; wall clock best %.1f ms (%.4f %s)", scalar.gflops(), unit, scalar.cTiles(),
                    vector.cTiles(), scalar.matmulCalls(), scalar.flops() / 1e6, o.dtype().isFloat() ? "FLOP" : "OP",
                    o.runs(), scalar.bestCpuSeconds() * 1e3, scalar.bestSeconds() * 1e3, scalar.wallGflops(), unit));
            out.add(String.format(Locale.ROOT, "  ratio   %s  vector / scalar %s", Ratios.text(ratio()), unit));
            out.add(String.format(Locale.ROOT, "  alloc   %.1f bytes per matmul call on the vector path (loads and stores"
                    + " included; packing buffers are reused)", vector.bytesPerCall()));
            out.add("  check   " + (agree ? "the C tiles both engines computed are bit-identical"
                    : "MISMATCH: the engines' C tiles differ"));
            out.add(String.format(Locale.ROOT, "  peak    %.1f GFLOP/s fp32 FMA, measured by a register-only FMA loop"
                    + " (= %.2f GHz x %d units x %d lanes x 2: the clock really running, turbo included)",
                    fmaProbeGflops, fmaProbeGflops / (peak.fmaUnits() * peak.lanes() * 2.0), peak.fmaUnits(),
                    peak.lanes()));
            out.add(String.format(Locale.ROOT, "  vector  %.1f %% of the measured single-core FP32 FMA peak (by CPU time;"
                    + " %.1f %% by wall clock)%s", percentOfProbe(), 100.0 * vector.wallGflops() / fmaProbeGflops,
                    o.dtype().isFloat() ? "" : " (int8 multiply-adds against fp32 FMAs)"));
            out.add(String.format(Locale.ROOT, "  nominal %s (%s): vector = %.1f %% of it%s", peak.derivation(),
                    peak.model(), percentOfPeak(), peak.gflops() < fmaProbeGflops
                            ? "; below the measured peak, as the core runs above that clock" : ""));
            return out;
        }
    }

    public static Result run(Options o) {
        try (Arena arena = Arena.ofConfined()) {
            Random rnd = new Random(42);
            Tensor a = random(arena, o.dtype(), o.size(), rnd);
            Tensor b = random(arena, o.dtype(), o.size(), rnd);
            DType acc = TiledMatmul.accumulator(o.dtype());
            Tensor cv = Tensor.allocate(arena, acc, o.size(), o.size());
            Tensor cs = Tensor.allocate(arena, acc, o.size(), o.size());
            TiledMatmul vector = new TiledMatmul(new VectorEngine(), a, b, cv, o.tile());
            TiledMatmul scalar = new TiledMatmul(new ScalarEngine(), a, b, cs, o.tile());
            Timing vt = time("vector", vector, vector.cTiles(), o.warmups(), o.runs(), o.size() / o.tile());
            Timing st = time("scalar", scalar, o.scalarCTiles(), Math.min(o.warmups(), 1), o.runs(), o.size() / o.tile());
            boolean agree = sameTiles(cv, cs, o.scalarCTiles(), o.size(), o.tile());
            double probe = FmaProbe.gflops(2_000_000, 5);
            return new Result(o, vt, st, agree, o.peak(), probe);
        }
    }

    private static Timing time(String name, TiledMatmul m, int cTiles, int warmups, int runs, int kTiles) {
        for (int i = 0; i < warmups; i++) {
            m.run(cTiles);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean heap = (com.sun.management.ThreadMXBean) threads;
        long tid = Thread.currentThread().threadId();
        double[] seconds = new double[runs];
        double bestCpu = Double.MAX_VALUE;
        long allocated0 = heap.getThreadAllocatedBytes(tid);
        for (int i = 0; i < runs; i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            m.run(cTiles);
            seconds[i] = (System.nanoTime() - t0) / 1e9;
            bestCpu = Math.min(bestCpu, (threads.getCurrentThreadCpuTime() - c0) / 1e9);
        }
        long allocated = heap.getThreadAllocatedBytes(tid) - allocated0;
        Arrays.sort(seconds);
        return new Timing(name, cTiles, (long) cTiles * kTiles, m.flops(cTiles), seconds[0], seconds[runs / 2], bestCpu,
                allocated / runs);
    }

    private static Tensor random(Arena arena, DType dtype, int size, Random rnd) {
        Tensor t = Tensor.allocate(arena, dtype, size, size);
        long n = t.numel();
        for (long i = 0; i < n; i++) {
            t.setDouble(i, dtype.isFloat() ? rnd.nextDouble() * 2 - 1 : rnd.nextInt(256) - 128);
        }
        return t;
    }

    /** Whether the first {@code cTiles} C tiles (row-major tile order) are bit-identical in both results. */
    private static boolean sameTiles(Tensor x, Tensor y, int cTiles, int size, int tile) {
        int perSide = size / tile;
        for (int t = 0; t < cTiles; t++) {
            int i0 = t / perSide * tile;
            int j0 = t % perSide * tile;
            for (int i = i0; i < i0 + tile; i++) {
                long off = x.byteOffset(i, j0);
                long len = (long) tile * x.dtype().byteSize();
                if (x.buffer().asSlice(off, len).mismatch(y.buffer().asSlice(off, len)) >= 0) {
                    return false;
                }
            }
        }
        return true;
    }
}
