package dev.jpto.lib.models.dsv4;

import dev.jpto.isa.Tensor;

import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A minimal materialiser of a {@link Dsv4Signature}'s inputs, for tests and goldens: one {@link SplittableRandom}
 * stream per tensor seeded by {@link Init#streamSeed}, elements in C order. The library's general seeded
 * generators may replace it; the rules themselves live in the {@link Init} values.
 */
public final class Dsv4Inputs {
    private Dsv4Inputs() {
    }

    /** Allocates every tensor of {@code sig} in {@code arena} and fills it; outputs start as zeros. */
    public static Map<String, Tensor> generate(Dsv4Signature sig, long seed, Arena arena) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        Init.Context ctx = new Init.Context() {
            @Override
            public Init.RandomSource stream(String tensorName) {
                return source(Init.streamSeed(seed, tensorName));
            }

            @Override
            public Tensor tensor(String name) {
                Tensor t = out.get(name);
                if (t == null) {
                    throw new IllegalArgumentException("tensor '" + name + "' is not generated yet");
                }
                return t;
            }
        };
        for (TensorSpec s : sig.tensors()) {
            Tensor t = Tensor.allocate(arena, s.dtype(), s.shape());
            fill(t, s, ctx);
            out.put(s.name(), t);
        }
        return out;
    }

    static void fill(Tensor t, TensorSpec s, Init.Context ctx) {
        long n = t.numel();
        switch (s.init()) {
            case Init.Zeros z -> {
            }
            case Init.Const c -> {
                for (long i = 0; i < n; i++) {
                    t.setDouble(i, c.value());
                }
            }
            case Init.Values v -> {
                double[] vals = v.values();
                if (vals.length != n) {
                    throw new IllegalArgumentException(s.name() + ": Values has " + vals.length
                            + " entries for " + n + " elements");
                }
                for (int i = 0; i < n; i++) {
                    t.setDouble(i, vals[i]);
                }
            }
            case Init.Normal nrm -> {
                Init.RandomSource r = ctx.stream(s.name());
                float[] v = new float[Math.toIntExact(n)];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) (nrm.mean() + nrm.std() * r.normal());
                }
                Arrays32.store(t, v);
            }
            case Init.Uniform u -> {
                Init.RandomSource r = ctx.stream(s.name());
                float[] v = new float[Math.toIntExact(n)];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) (u.lo() + (u.hi() - u.lo()) * r.uniform());
                }
                Arrays32.store(t, v);
            }
            case Init.IntRange ir -> {
                Init.RandomSource r = ctx.stream(s.name());
                double span = ir.hi() - ir.lo() + 1.0;
                for (long i = 0; i < n; i++) {
                    t.setDouble(i, ir.lo() + Math.min(span - 1, Math.floor(r.uniform() * span)));
                }
            }
            case Init.Custom c -> c.fill().fill(t, ctx);
        }
    }

    /** Uniform from SplittableRandom, normals by Box–Muller (one of each pair used). */
    static Init.RandomSource source(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return new Init.RandomSource() {
            @Override
            public double uniform() {
                return r.nextDouble();
            }

            @Override
            public double normal() {
                double u1 = 1.0 - r.nextDouble();
                double u2 = r.nextDouble();
                return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            }
        };
    }
}
