package dev.jpto.lib.compare;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The outcome of one comparison.
 *
 * @param passed           whether the output matches under the comparator's rule
 * @param numel            elements compared
 * @param mismatchCount    elements (or, for {@link TopkPair}, positions) that break the rule; for a structural
 *                         failure (wrong shape, missing tensor, bad mapping) the count of elements compared, 0 if
 *                         none were
 * @param maxAbsError      max |actual − expected| over elements where both are finite (0 if none; NaN if nothing
 *                         was compared)
 * @param maxRelError      max |actual − expected| / |expected| over elements where both are finite and expected
 *                         ≠ 0 (0 if none; NaN if nothing was compared)
 * @param firstMismatches  multi-dimensional indices (C order) of the first few mismatching elements, at most
 *                         {@link #MAX_SHOWN}
 * @param description      one line for the runner's {@code '<name>' PASS|FAIL …} line: the comparator with its
 *                         parameters, the counts and errors, the first mismatching indices, and why it failed
 */
public record CompareResult(boolean passed, long numel, long mismatchCount, double maxAbsError, double maxRelError,
        List<long[]> firstMismatches, String description) {
    /** How many mismatching indices a result keeps. */
    public static final int MAX_SHOWN = 8;

    public CompareResult {
        firstMismatches = firstMismatches.stream().map(long[]::clone).toList();
    }

    /** A failure found before any element was compared: wrong shape, missing tensor, invalid mapping. */
    static CompareResult structural(String comparator, String problem) {
        return new CompareResult(false, 0, 0, Double.NaN, Double.NaN, List.of(), comparator + ": " + problem);
    }

    /** The indices as {@code [0, 3] [1, 2]}; empty text when there are none. */
    public String firstMismatchText() {
        return firstMismatches.stream().map(Arrays::toString).collect(Collectors.joining(" "));
    }

    /** Compact number formatting shared by descriptions. */
    static String num(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }

    @Override
    public String toString() {
        return (passed ? "PASS " : "FAIL ") + description;
    }
}
