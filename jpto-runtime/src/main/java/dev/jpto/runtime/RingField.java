package dev.jpto.runtime;

import java.util.Locale;

/**
 * The three per-ring capacities of {@code CallConfig.runtime_env}, and everything said about them: the key, the
 * unit, the default, the valid range and rule, and how a needed amount is rounded into the value to advise. Every
 * layer (RuntimeEnv, RunConfig keys and help, the ring planner, the allocator errors, docs) derives from this
 * table; nothing else spells these facts out.
 *
 * <p>Four rings, one per scope depth: a task submitted at depth {@code d} lives on ring {@link #ringOf}(d).
 * Advice rounding: a task window must be a power of two (the runtime's rule); heaps are advised in whole MiB (any
 * size ≥ 1024 bytes is valid, a power of two would cost up to 2× memory for nothing); dep pools are advised as a
 * power of two (no rule, it keeps the numbers readable and costs at most 2× of a small pool).
 */
public enum RingField {
    TASK_WINDOW("ring_task_window", "task slots", "N", 16384, 4, 1L << 30, true, Rounding.POWER_OF_TWO),
    HEAP("ring_heap", "heap bytes", "512MiB", 256L << 20, 1024, Long.MAX_VALUE, false, Rounding.MIB),
    DEP_POOL("ring_dep_pool", "dependency entries", "N", 16384, 4, Integer.MAX_VALUE, false, Rounding.POWER_OF_TWO);

    /** Rings per chip. */
    public static final int RINGS = 4;

    /** How a needed amount becomes an advised value. */
    public enum Rounding {
        POWER_OF_TWO("the next power of two"),
        MIB("the next whole MiB");

        private final String text;

        Rounding(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }

        long up(long v) {
            return switch (this) {
                case POWER_OF_TWO -> v <= 1 ? 1 : Long.highestOneBit(v - 1) << 1;
                case MIB -> Math.ceilDiv(v, 1L << 20) << 20;
            };
        }
    }

    private final String key;
    private final String unit;
    private final String example;
    private final long defaultValue;
    private final long min;
    private final long max;
    private final boolean powerOfTwo;
    private final Rounding rounding;

    RingField(String key, String unit, String example, long defaultValue, long min, long max, boolean powerOfTwo,
              Rounding rounding) {
        this.key = key;
        this.unit = unit;
        this.example = example;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.powerOfTwo = powerOfTwo;
        this.rounding = rounding;
    }

    /** The ring of a task submitted at scope depth {@code depth} (depth 0 = outside every scope). */
    public static int ringOf(int depth) {
        return Math.min(depth, RINGS - 1);
    }

    /** The field whose runtime_cfg key is {@code key}, e.g. {@code ring_heap}. */
    public static RingField byKey(String key) {
        for (RingField f : values()) {
            if (f.key.equals(key)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no ring field '" + key + "' (ring_task_window, ring_heap, ring_dep_pool)");
    }

    /** The runtime_cfg / RunConfig key, e.g. {@code ring_heap}. */
    public String key() {
        return key;
    }

    /** What one unit of the value is, e.g. {@code heap bytes}. */
    public String unit() {
        return unit;
    }

    /** The capacity of a ring whose entry is 0 (unset). */
    public long defaultValue() {
        return defaultValue;
    }

    public long min() {
        return min;
    }

    /** The largest valid value ({@link Long#MAX_VALUE}: no bound but the 64-bit sum over the rings). */
    public long max() {
        return max;
    }

    /** Whether a valid value must be a power of two. */
    public boolean powerOfTwo() {
        return powerOfTwo;
    }

    public Rounding rounding() {
        return rounding;
    }

    /** The capacity in force for a runtime_env entry: the entry, or the default when it is 0. */
    public long inForce(long entry) {
        return entry != 0 ? entry : defaultValue;
    }

    /** Whether {@code v} is a valid explicit entry. */
    public boolean valid(long v) {
        return v >= min && v <= max && (!powerOfTwo || Long.bitCount(v) == 1);
    }

    /** The valid range as a phrase, e.g. {@code a power of two in [4, 1073741824]}, {@code at least 1024 bytes}. */
    public String rule() {
        String range = max == Long.MAX_VALUE ? "at least " + min + " bytes" : "in [" + min + ", " + max + "]";
        return powerOfTwo ? "a power of two " + range : range;
    }

    /** The nearest valid value to an invalid {@code v}, for "(try …)". */
    public long nearestValid(long v) {
        if (v < min) {
            return min;
        }
        if (v > max) {
            return max;
        }
        return powerOfTwo ? Rounding.POWER_OF_TWO.up(v) : v; // max is a power of two where that is the rule
    }

    /**
     * Checks one explicit entry (0 = default is valid); the message names field, ring, rule, value and a valid
     * value to try.
     */
    public void validate(int ring, long v) {
        if (v == 0 || valid(v)) {
            return;
        }
        String tryText = max == Long.MAX_VALUE ? nearestValid(v) + " or more, e.g. 512MiB" : Long.toString(
                nearestValid(v));
        throw new IllegalArgumentException(key + " for ring " + ring + " must be " + rule() + " (0 = default "
                + format(defaultValue) + "): " + key + "[" + ring + "]=" + v + " (try " + tryText + ")");
    }

    /**
     * The value to advise for a ring that needs {@code need}: at least {@link #min()}, rounded up by
     * {@link #rounding()}, at most {@link #max()}. Planner and runtime both advise through this, so the advice for
     * one need is one number.
     */
    public long advised(long need) {
        long v = rounding.up(Math.max(need, min));
        return v < 0 ? max : Math.min(max, v);
    }

    /** A value in the unit's usual form: {@code 512MiB} for heap bytes, plain decimal otherwise. */
    public String format(long v) {
        return this == HEAP ? Sizes.format(v) : Long.toString(v);
    }

    /** {@code ring_heap=0,512MiB,0,0}: the runtime_env entries {@code entries} with ring {@code ring} set to v. */
    public String runtimeCfg(long[] entries, int ring, long v) {
        StringBuilder sb = new StringBuilder(key).append('=');
        for (int i = 0; i < entries.length; i++) {
            sb.append(i == 0 ? "" : ",").append(format(i == ring ? v : entries[i]));
        }
        return sb.toString();
    }

    /**
     * The help line of the RunConfig key, e.g. {@code task slots per ring: N or r0,r1,r2,r3 (a power of two in
     * [4, 1073741824]; 0 in a list = default 16384)}.
     */
    public String help() {
        return unit + " per ring: " + example + " or r0,r1,r2,r3 (" + rule() + "; 0 in a list = default "
                + format(defaultValue) + ")";
    }

    /** The docs table: one row per field with key, unit, default, valid values and advice rounding (Markdown). */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder("| key | unit | default | valid values | advice rounds a need up to |\n"
                + "|---|---|---|---|---|\n");
        for (RingField f : values()) {
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s |\n", f.key, f.unit,
                    f.format(f.defaultValue), f.rule(), f.rounding.text()
                            + (f.rounding == Rounding.MIB ? " (at least 1 MiB)" : "")));
        }
        return sb.toString();
    }
}
