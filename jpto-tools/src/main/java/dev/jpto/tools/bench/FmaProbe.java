package dev.jpto.tools.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Measures this core's fp32 FMA throughput directly: 12 independent chains of fused multiply-adds on registers
 * of the machine's preferred vector size (no memory traffic; 12 chains cover 4-cycle latency × 2 FMA ports
 * with room, and 12 + 2 operands fit AVX2's 16 ymm). The result is the ceiling any matmul can reach here at
 * the clock the core actually runs (turbo included); divided by 2 units × lanes × 2 flop it gives that clock,
 * and it proves the unit count: one unit would need twice the clock. (A fixed 512-bit species would not be
 * intrinsified on an AVX2 machine and measure the Vector API's Java fallback instead.)
 */
public final class FmaProbe {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final int CHAINS = 12;

    private FmaProbe() {
    }

    /** GFLOP/s of the best of {@code runs} runs of {@code iterations} steps, by CPU time of the thread. */
    public static double gflops(long iterations, int runs) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double best = 0;
        float sink = 0;
        for (int r = 0; r < runs + 2; r++) {
            long c0 = threads.getCurrentThreadCpuTime();
            sink += chains(iterations);
            double seconds = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
            if (r >= 2) { // the first two runs warm up the JIT
                best = Math.max(best, (double) CHAINS * F.length() * 2 * iterations / seconds / 1e9);
            }
        }
        if (Float.isNaN(sink)) {
            throw new AssertionError("unreachable: keeps the chains' results alive");
        }
        return best;
    }

    /**
     * The machine's FMA ceiling with {@code threads} probes running at once, each measured as in {@link #gflops}
     * (by its own CPU time) and summed: what all those cores together can do, turbo as it runs with all busy.
     *
     * @throws IllegalStateException when a probe has not finished within {@code timeout}
     */
    public static double gflopsOnThreads(int threads, long iterations, int runs, Duration timeout) {
        double[] each = new double[threads];
        Thread[] workers = new Thread[threads];
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            int i = t;
            workers[t] = Thread.ofPlatform().daemon().name("fma-probe-" + t).start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                each[i] = gflops(iterations, runs);
            });
        }
        start.countDown();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (Thread w : workers) {
                w.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                if (w.isAlive()) {
                    throw new IllegalStateException("the FMA probe on " + threads + " threads did not finish within "
                            + timeout.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the FMA probe ran", e);
        }
        return Arrays.stream(each).sum();
    }

    private static float chains(long iterations) {
        FloatVector x = FloatVector.broadcast(F, 0.999999f);
        FloatVector y = FloatVector.broadcast(F, 1e-7f);
        FloatVector a0 = FloatVector.broadcast(F, 1f);
        FloatVector a1 = a0.add(1);
        FloatVector a2 = a0.add(2);
        FloatVector a3 = a0.add(3);
        FloatVector a4 = a0.add(4);
        FloatVector a5 = a0.add(5);
        FloatVector a6 = a0.add(6);
        FloatVector a7 = a0.add(7);
        FloatVector a8 = a0.add(8);
        FloatVector a9 = a0.add(9);
        FloatVector a10 = a0.add(10);
        FloatVector a11 = a0.add(11);
        for (long i = 0; i < iterations; i++) {
            a0 = a0.fma(x, y);
            a1 = a1.fma(x, y);
            a2 = a2.fma(x, y);
            a3 = a3.fma(x, y);
            a4 = a4.fma(x, y);
            a5 = a5.fma(x, y);
            a6 = a6.fma(x, y);
            a7 = a7.fma(x, y);
            a8 = a8.fma(x, y);
            a9 = a9.fma(x, y);
            a10 = a10.fma(x, y);
            a11 = a11.fma(x, y);
        }
        return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7).add(a8).add(a9).add(a10).add(a11)
                .reduceLanes(VectorOperators.ADD);
    }
}
