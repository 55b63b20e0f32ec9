package dev.jpto.tools.bench;

import java.util.Locale;

/** How the benchmarks print a ratio: enough digits that 0.35 stays 0.35x and 1234 stays readable. */
public final class Ratios {
    private Ratios() {
    }

    /** {@code 1234x}, {@code 67.3x}, {@code 0.35x}: three significant digits up to 100, whole numbers above. */
    public static String text(double ratio) {
        double magnitude = Math.abs(ratio);
        String format = magnitude >= 100 ? "%.0fx" : magnitude >= 10 ? "%.1fx" : magnitude >= 0.1 ? "%.2fx" : "%.3gx";
        return String.format(Locale.ROOT, format, ratio);
    }
}
