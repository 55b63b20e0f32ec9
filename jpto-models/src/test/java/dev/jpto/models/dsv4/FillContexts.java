package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;

/** Runs a custom input rule alone: streams of one seed, no earlier inputs. */
final class FillContexts {
    private FillContexts() {
    }

    static Init.Context context(long seed) {
        return new Init.Context() {
            @Override
            public Init.RandomSource stream(String tensorName) {
                return Dsv4Inputs.source(seed, tensorName);
            }

            @Override
            public Tensor tensor(String name) {
                throw new AssertionError("unexpected read of " + name);
            }
        };
    }

    static void fill(Init init, Tensor t, long seed) {
        ((Init.Custom) init).fill().fill(t, context(seed));
    }
}
