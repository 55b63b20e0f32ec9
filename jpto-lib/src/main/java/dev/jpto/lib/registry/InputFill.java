package dev.jpto.lib.registry;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.gen.Generators;
import dev.jpto.lib.gen.Init;

/**
 * How one input tensor is generated. Most programs use a {@link Init} rule ({@link #of(Init)}); a model with its
 * own rules (tables, masks, index pools) implements this directly. Must be reproducible: the same
 * (name, seed) gives the same bits.
 */
public interface InputFill {
    /** Fills {@code target} (contiguous, the input's dtype and shape) for tensor {@code name} under {@code seed}. */
    void fill(Tensor target, String name, long seed);

    /** One short phrase for the runner's log, e.g. {@code normal(mean=0.0, std=1.0)}. */
    String describe();

    /** A fill from one of the seeded generators' rules. */
    static InputFill of(Init init) {
        return new FromInit(init);
    }

    /** An {@link Init} rule applied through {@link Generators#fill}. */
    record FromInit(Init init) implements InputFill {
        @Override
        public void fill(Tensor target, String name, long seed) {
            Generators.fill(target, name, init, seed);
        }

        @Override
        public String describe() {
            return init.describe();
        }
    }
}
