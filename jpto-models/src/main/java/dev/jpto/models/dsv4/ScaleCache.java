package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fp32 scales of a quantised-weight rule whose codes and scales are two tensors made by one pass: the codes
 * pass keeps the scales it computed, so the scales tensor filled next from the same (seed, stream) reuses them
 * instead of running the pass again; asked alone, or for another seed, the scales run the pass themselves.
 *
 * <p>Kept process-wide (the programs build a weight's codes and scales specs from separate signature calls, so two
 * rule instances must meet), keyed by the rule's {@code recipe} (everything that determines the scales: rule,
 * stream name, dims, parameters) and a fingerprint of the seed (the stream's first uniform, 53 seed-dependent
 * bits); the {@value #CAPACITY} most recently used entries are kept (a pro run has about ten weights, each entry
 * at most a few MB).
 */
final class ScaleCache {
    private static final int CAPACITY = 32;
    private static final Map<String, double[]> RECENT = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
            return size() > CAPACITY;
        }
    };

    /** One generation pass: writes the codes into {@code codes} when it is not null; returns the final scales. */
    @FunctionalInterface
    interface Pass {
        double[] run(Init.Context c, Tensor codes);
    }

    private final String stream;
    private final String recipe;
    private final Pass pass;

    /** {@code stream}: the weight's stream name (fingerprinted); {@code recipe}: what else fixes the scales. */
    ScaleCache(String stream, String recipe, Pass pass) {
        this.stream = stream;
        this.recipe = recipe;
        this.pass = pass;
    }

    /** Runs the pass into {@code codes} and keeps its scales. */
    void codes(Init.Context c, Tensor codes) {
        String key = key(c);
        double[] s = pass.run(c, codes);
        synchronized (RECENT) {
            RECENT.put(key, s);
        }
    }

    /** The scales of an earlier pass under the same recipe and seed, or of a new pass (without codes). */
    double[] scales(Init.Context c) {
        String key = key(c);
        synchronized (RECENT) {
            double[] s = RECENT.get(key);
            if (s != null) {
                return s;
            }
        }
        double[] s = pass.run(c, null);
        synchronized (RECENT) {
            RECENT.put(key, s);
        }
        return s;
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

    private String key(Init.Context c) {
        return recipe + " @" + Long.toHexString(Double.doubleToRawLongBits(c.stream(stream).uniform()));
    }
}
