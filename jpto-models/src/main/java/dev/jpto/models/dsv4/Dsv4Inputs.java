package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.gen.Generators;
import dev.jpto.lib.gen.SplitMix64;
import dev.jpto.lib.gen.Ziggurat;

import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Materialises a {@link Dsv4Signature}'s inputs: plain distributions through the library's seeded generators
 * ({@link Generators}), the DSv4-specific rules ({@link Init.Custom}, {@link Init.Values}) here, drawing from the
 * same per-tensor streams ({@link SplitMix64#stream(long, String)}), elements in C order. The custom rules' random
 * primitives: uniform is {@code nextDouble}; normal: ziggurat on the tensor's stream ({@link Ziggurat}; plain
 * {@code normal} distributions keep the generators' Box–Muller).
 */
public final class Dsv4Inputs {
    private Dsv4Inputs() {
    }

    /**
     * Fills one tensor of a signature on its own (the runner generates inputs one by one): rules that read other
     * tensors are not allowed here and fail naming the tensor.
     */
    public static void fillOne(Tensor target, TensorSpec spec, long seed) {
        Init.Context ctx = new Init.Context() {
            @Override
            public Init.RandomSource stream(String tensorName) {
                return source(seed, tensorName);
            }

            @Override
            public Tensor tensor(String name) {
                throw new IllegalArgumentException("input '" + spec.name() + "' reads tensor '" + name
                        + "': generate the whole signature with Dsv4Inputs.generate instead");
            }
        };
        fill(target, spec, ctx, seed);
    }

    /** Allocates every tensor of {@code sig} in {@code arena} and fills it; outputs start as zeros. */
    public static Map<String, Tensor> generate(Dsv4Signature sig, long seed, Arena arena) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        Init.Context ctx = new Init.Context() {
            @Override
            public Init.RandomSource stream(String tensorName) {
                return source(seed, tensorName);
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
            fill(t, s, ctx, seed);
            out.put(s.name(), t);
        }
        return out;
    }

    static void fill(Tensor t, TensorSpec s, Init.Context ctx, long seed) {
        long n = t.numel();
        switch (s.init()) {
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
            case Init.Dist dist -> Generators.fill(t, s.name(), dist.dist(), seed);
            case Init.Custom c -> c.fill().fill(t, ctx);
        }
    }

    /**
     * The generators' per-tensor stream {@code SplitMix64.stream(seed, tensorName)}: uniform = nextDouble; normal:
     * ziggurat on the tensor's stream ({@link Ziggurat#normal}, bit-reproducible and a fraction of Box–Muller's
     * cost, which the weight rules' billions of draws at the pro preset need).
     */
    static Init.RandomSource source(long seed, String tensorName) {
        SplitMix64 r = SplitMix64.stream(seed, tensorName);
        return new Init.RandomSource() {
            @Override
            public double uniform() {
                return r.nextDouble();
            }

            @Override
            public double normal() {
                return Ziggurat.normal(r);
            }

            @Override
            public void uniforms(double[] dst, int off, int len) {
                r.nextDoubles(dst, off, len);
            }

            @Override
            public void skip(long draws) {
                r.skip(draws);
            }
        };
    }
}
