package dev.jpto.cli.report;

/**
 * The host's compute and memory peaks, measured in a few milliseconds each when a report is made: one core's
 * multiply-add rate on doubles (independent chains, so the JIT can pipeline and vectorise them) and a copy
 * between two 64 MiB arrays. Rough ceilings for the roofline, not a benchmark.
 */
record HostPeak(double gflops, double gbps) {
    private static final int ROUNDS = 5;

    static HostPeak measure() {
        double[] a = new double[1024];
        java.util.Arrays.fill(a, 1.0);
        double bestFlops = 0;
        for (int r = 0; r < ROUNDS * 4; r++) { // the first rounds run before the JIT compiled the loop
            long t0 = System.nanoTime();
            fma(a, 2000);
            bestFlops = Math.max(bestFlops, 2.0 * 2000 * a.length / (System.nanoTime() - t0));
        }
        long[] src = new long[4 << 20];
        long[] dst = new long[src.length];
        double bestBytes = 0;
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            System.arraycopy(src, 0, dst, 0, src.length);
            bestBytes = Math.max(bestBytes, 2.0 * src.length * Long.BYTES / (System.nanoTime() - t0)); // read + write
        }
        return new HostPeak(bestFlops + 0 * a[0] + 0 * dst[1], bestBytes);
    }

    private static void fma(double[] a, int reps) {
        for (int k = 0; k < reps; k++) {
            for (int i = 0; i < a.length; i++) {
                a[i] = a[i] * 0.999999 + 1e-9;
            }
        }
    }
}
