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
            case ROUND -> value < 0 ? -Math.floor(-value + 0.5) : Math.floor(value + 0.5);
            case FLOOR -> Math.floor(value);
            case CEIL -> Math.ceil(value);
            case TRUNC -> value < 0 ? Math.ceil(value) : Math.floor(value);
        };
    }
}
