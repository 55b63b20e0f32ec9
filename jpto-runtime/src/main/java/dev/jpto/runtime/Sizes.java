package dev.jpto.runtime;

import java.util.Locale;

/** Byte sizes with binary units: {@code 65536}, {@code 64KiB}, {@code 512MiB}, {@code 1GiB}, {@code 2TiB}. */
public final class Sizes {
    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB"};

    private Sizes() {}

    /** Parses a non-negative size; the unit is case-insensitive ({@code 512mib} works), no sign, no fraction. */
    public static long parseBytes(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("size is empty; expected a byte count such as 65536, 512MiB or 1GiB");
        }
        String t = text.trim();
        int end = 0;
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        if (end == 0) {
            throw bad(text);
        }
        String unit = t.substring(end).trim().toLowerCase(Locale.ROOT);
        int shift = switch (unit) {
            case "", "b" -> 0;
            case "kib", "k" -> 10;
            case "mib", "m" -> 20;
            case "gib", "g" -> 30;
            case "tib", "t" -> 40;
            default -> throw bad(text);
        };
        long value;
        try {
            value = Long.parseLong(t.substring(0, end));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size '" + text + "' does not fit in 64 bits");
        }
        if (shift > 0 && value > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("size '" + text + "' does not fit in 64 bits");
        }
        return value << shift;
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("size '" + text + "' is not a byte count; expected digits with an "
                + "optional unit KiB, MiB, GiB or TiB (K, M, G, T also accepted), e.g. 65536, 512MiB, 1GiB");
    }

    /** The largest exact binary unit: 536870912 → {@code 512MiB}, 3072 → {@code 3KiB}, 1536 → {@code 1536}. */
    public static String format(long bytes) {
        if (bytes <= 0) {
            return Long.toString(bytes);
        }
        for (int i = UNITS.length - 1; i >= 0; i--) {
            int shift = 10 * (i + 1);
            if ((bytes & ((1L << shift) - 1)) == 0) {
                return (bytes >> shift) + UNITS[i];
            }
        }
        return Long.toString(bytes);
    }

    /**
     * For people, at a glance: the largest unit the value reaches, whole when exact ({@code 16GiB}), else with one
     * decimal ({@code 17592186048512} → {@code 16.0TiB}, where {@link #approx} would give {@code 17179869188KiB}).
     */
    public static String readable(long bytes) {
        for (int i = UNITS.length - 1; i >= 0; i--) {
            int shift = 10 * (i + 1);
            if (bytes >= 1L << shift) {
                return (bytes & ((1L << shift) - 1)) == 0 ? (bytes >> shift) + UNITS[i]
                        : String.format(Locale.ROOT, "%.1f%s", bytes / Math.scalb(1.0, shift), UNITS[i]);
            }
        }
        return bytes + "B";
    }

    /**
     * For people, not for config: the exact unit when there is one, else one decimal of the largest unit the
     * value reaches ({@code 403620460} → {@code 384.9MiB}, {@code 1536} → {@code 1.5KiB}, {@code 900} → {@code 900B}).
     */
    public static String approx(long bytes) {
        String exact = format(bytes);
        if (!exact.equals(Long.toString(bytes))) {
            return exact;
        }
        for (int i = UNITS.length - 1; i >= 0; i--) {
            double unit = Math.scalb(1.0, 10 * (i + 1));
            if (bytes >= unit) {
                return String.format(Locale.ROOT, "%.1f%s", bytes / unit, UNITS[i]);
            }
        }
        return bytes + "B";
    }
}
