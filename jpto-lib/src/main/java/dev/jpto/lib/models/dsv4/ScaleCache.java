package dev.jpto.lib.models.dsv4;

import dev.jpto.isa.Tensor;

/**
 * The fp32 scales of a quantised-weight rule whose codes and scales are two tensors from one pass: the codes pass
 * keeps the scales it computed, keyed by a fingerprint of the context's stream for the weight (its first uniform,
 * 53 bits of the seed-dependent state), so the scales tensor filled next from the same (seed, stream) reuses them
 * instead of running the pass again; asked alone, or for another seed, the scales run the pass themselves.
 */
final class ScaleCache {
    /** One generation pass: writes the codes into {@code codes} when it is not null; returns the final scales. */
    @FunctionalInterface
    interface Pass {
        double[] run(Init.Context c, Tensor codes);
    }

    private final String stream;
    private final Pass pass;
    private long key;
    private double[] scales; // guarded by this; null until a pass ran

    ScaleCache(String stream, Pass pass) {
        this.stream = stream;
        this.pass = pass;
    }

    /** Runs the pass into {@code codes} and keeps its scales. */
    synchronized void codes(Init.Context c, Tensor codes) {
        long k = fingerprint(c);
        scales = pass.run(c, codes);
        key = k;
    }

    /** The scales of the last pass under the same stream, or of a new pass (without codes). */
    synchronized double[] scales(Init.Context c) {
        long k = fingerprint(c);
        if (scales == null || k != key) {
            scales = pass.run(c, null);
            key = k;
        }
        return scales;
    }

    /** Stores {@code s} into a scales tensor of exactly {@code s.length} elements. */
    void store(Tensor t, double[] s) {
        if (t.numel() != s.length) {
            throw new IllegalArgumentException(stream + ": the scales need " + s.length + " elements, target " + t);
        }
        for (int i = 0; i < s.length; i++) {
            t.setDouble(i, s[i]);
        }
    }

    private long fingerprint(Init.Context c) {
        return Double.doubleToRawLongBits(c.stream(stream).uniform());
    }
}
