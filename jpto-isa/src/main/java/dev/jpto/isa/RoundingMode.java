package dev.jpto.isa;

/** Rounding of a cast to an integer type (the float-to-float narrowing always rounds to nearest even). */
public enum RoundingMode {
    /** Nearest, ties to even. */
    RINT,
    /** Nearest, ties away from zero. */
    ROUND,
    FLOOR,
    CEIL,
    /** Toward zero. */
    TRUNC;

    /** Rounds a double to an integral double in this mode. */
    public double apply(double value) {
        return switch (this) {
            case RINT -> Math.rint(value);
            case ROUND -> roundHalfAway(value);
            case FLOOR -> Math.floor(value);
            case CEIL -> Math.ceil(value);
            case TRUNC -> value < 0 ? Math.ceil(value) : Math.floor(value);
        };
    }

    /**
     * Nearest, ties away from zero. Not {@code floor(x + 0.5)}: that addition itself rounds, so
     * 0.49999999999999994 and odd integers above 2^52 would come out one too large.
     */
    private static double roundHalfAway(double value) {
        double t = value < 0 ? Math.ceil(value) : Math.floor(value);
        // value - t is exact: the fraction of a double is representable in a double.
        if (Math.abs(value - t) >= 0.5) {
            t += Math.signum(value);
        }
        return t;
    }
}
