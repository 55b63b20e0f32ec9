package dev.jpto.models.basic;

/** Preset checks shared by the basic programs. */
final class Shapes {
    private Shapes() {
    }

    static void divides(String program, String what, long value, String by, long divisor) {
        if (divisor <= 0 || value <= 0 || value % divisor != 0) {
            throw new IllegalArgumentException(program + ": " + what + " must be a positive multiple of " + by
                    + ": " + what + "=" + value + " " + by + "=" + divisor);
        }
    }
}
