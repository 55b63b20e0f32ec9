package dev.jpto.compiler.run;

import dev.jpto.runtime.RingField;
import dev.jpto.runtime.Sizes;

/**
 * One ring-sizing field of {@link RunConfig} ({@code ring_task_window}, {@code ring_heap},
 * {@code ring_dep_pool}): absent (every ring keeps its default), one value for all four rings, or one value
 * per ring (0 keeps that ring's default). The string form is {@code 512MiB} or {@code 0,0,2GiB,0}; sizes take
 * binary units ({@link Sizes#parseBytes}). {@code auto} ({@link Auto}) means "what the program's ring plan
 * recommends" and is resolved, per ring, when a dispatch has the program ({@link AutoRings}).
 */
public sealed interface RingSize {
    /** Not set: the runtime's defaults apply to every ring. */
    record Absent() implements RingSize {
    }

    /** The same value on all four rings. */
    record Uniform(long value) implements RingSize {
    }

    /** One value per ring ({@code RingField.ringOf(scope depth)}); 0 keeps that ring's default. */
    record PerRing(long ring0, long ring1, long ring2, long ring3) implements RingSize {
    }

    /**
     * Sized from the program's ring plan ({@code dev.jpto.compiler.plan.RingPlanner}) at dispatch, for all four
     * rings; {@link CallConfigs#from(RunConfig, dev.jpto.compiler.ir.Program)} replaces it with the plan's values.
     */
    record Auto() implements RingSize {
    }

    static RingSize absent() {
        return new Absent();
    }

    static RingSize auto() {
        return new Auto();
    }

    default boolean isAuto() {
        return this instanceof Auto;
    }


    static RingSize of(long value) {
        return new Uniform(value);
    }

    static RingSize of(long ring0, long ring1, long ring2, long ring3) {
        return new PerRing(ring0, ring1, ring2, ring3);
    }

    default boolean isAbsent() {
        return this instanceof Absent;
    }

    /** The four CallConfig.runtime_env entries this sets (0 = default). */
    default long[] entries() {
        return switch (this) {
            case Absent a -> new long[RingField.RINGS];
            case Uniform u -> new long[] {u.value(), u.value(), u.value(), u.value()};
            case PerRing p -> new long[] {p.ring0(), p.ring1(), p.ring2(), p.ring3()};
            case Auto a -> throw new IllegalStateException("ring size 'auto' has no entries until it is resolved "
                    + "against the program's ring plan (CallConfigs.from(config, program))");
        };
    }

    /**
     * The string form in plain decimal ({@code 536870912}, {@code 0,0,4096,0}): the same for byte sizes and
     * counts, and accepted back by {@link #parse}. Empty for absent.
     */
    default String text() {
        return switch (this) {
            case Absent a -> "";
            case Uniform u -> Long.toString(u.value());
            case PerRing p -> p.ring0() + "," + p.ring1() + "," + p.ring2() + "," + p.ring3();
            case Auto a -> "auto";
        };
    }

    /**
     * Parses one value or exactly four comma-separated values; {@code key} names the field in errors.
     * Range rules are not checked here (see {@link RunConfig}). {@code auto} (any case) is {@link Auto}.
     */
    static RingSize parse(String key, String text) {
        if (text.strip().equalsIgnoreCase("auto")) {
            return auto();
        }
        String[] parts = text.split(",", -1);
        if (parts.length != 1 && parts.length != RingField.RINGS) {
            throw new IllegalArgumentException(key + " takes one value or exactly " + RingField.RINGS
                    + " comma-separated values (one per ring, 0 = default): " + key + "=" + text + " has "
                    + parts.length + " values (e.g. " + key + "=512MiB or " + key + "=0,0,512MiB,0)");
        }
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Sizes.parseBytes(parts[i]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + "=" + text + ": " + (parts.length == 1 ? "" : "value " + i
                        + ": ") + e.getMessage(), e);
            }
        }
        return v.length == 1 ? of(v[0]) : of(v[0], v[1], v[2], v[3]);
    }
}
