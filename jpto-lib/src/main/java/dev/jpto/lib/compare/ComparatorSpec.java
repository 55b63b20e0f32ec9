package dev.jpto.lib.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A comparator written as text, for the command line ({@code jpto exec --compare y=allclose(1e-3, 1e-5)}):
 * {@code allclose(RTOL, ATOL)}, {@code allclose} (numpy's defaults), {@code exact},
 * {@code ratio_allclose(RTOL, ATOL[, MAX_ERROR_RATIO])} and {@code ratio_reldiff(DIFF_THD, PCT_THD[, MAX_DIFF_HD])},
 * each meaning the {@link Comparators} factory of the same name.
 */
public final class ComparatorSpec {
    /** numpy.allclose's defaults, for an output given no comparator. */
    public static final double NUMPY_RTOL = 1e-5;
    public static final double NUMPY_ATOL = 1e-8;

    /** The forms {@link #parse} accepts, for messages. */
    public static final String FORMS = "allclose(RTOL, ATOL), allclose, exact, ratio_allclose(RTOL, ATOL[, "
            + "MAX_ERROR_RATIO]), ratio_reldiff(DIFF_THD, PCT_THD[, MAX_DIFF_HD])";

    private ComparatorSpec() {
    }

    /** numpy.allclose with its default tolerances. */
    public static GoldenComparator numpyDefault() {
        return Comparators.allclose(NUMPY_RTOL, NUMPY_ATOL);
    }

    /**
     * The comparator {@code text} names.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static GoldenComparator parse(String text) {
        String t = text.strip();
        int open = t.indexOf('(');
        String name = (open < 0 ? t : t.substring(0, open)).strip().toLowerCase(Locale.ROOT);
        List<Double> args = open < 0 ? List.of() : args(text, t, open);
        return switch (name) {
            case "exact" -> arity(text, args, 0, 0, () -> Comparators.allclose(0, 0));
            case "allclose" -> args.isEmpty() ? numpyDefault()
                    : arity(text, args, 2, 2, () -> Comparators.allclose(args.get(0), args.get(1)));
            case "ratio_allclose" -> arity(text, args, 2, 3, () -> args.size() == 2
                    ? Comparators.ratioAllclose(args.get(0), args.get(1))
                    : Comparators.ratioAllclose(args.get(0), args.get(1), args.get(2)));
            case "ratio_reldiff" -> arity(text, args, 2, 3, () -> args.size() == 2
                    ? Comparators.ratioReldiff(args.get(0), args.get(1))
                    : Comparators.ratioReldiff(args.get(0), args.get(1), args.get(2)));
            default -> throw new IllegalArgumentException("comparator '" + text + "' is not one of " + FORMS);
        };
    }

    private static List<Double> args(String text, String t, int open) {
        if (!t.endsWith(")")) {
            throw new IllegalArgumentException("comparator '" + text + "' has no closing ')'; forms: " + FORMS);
        }
        String inside = t.substring(open + 1, t.length() - 1).strip();
        List<Double> out = new ArrayList<>();
        if (inside.isEmpty()) {
            return out;
        }
        for (String a : inside.split(",")) {
            try {
                double v = Double.parseDouble(a.strip());
                if (!Double.isFinite(v) || v < 0) {
                    throw new NumberFormatException();
                }
                out.add(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("comparator '" + text + "': argument '" + a.strip()
                        + "' is not a finite number >= 0", e);
            }
        }
        return out;
    }

    private static GoldenComparator arity(String text, List<Double> args, int min, int max,
                                          java.util.function.Supplier<GoldenComparator> make) {
        if (args.size() < min || args.size() > max) {
            throw new IllegalArgumentException("comparator '" + text + "' takes " + (min == max ? min : min + " to "
                    + max) + " argument(s), got " + args.size() + "; forms: " + FORMS);
        }
        return make.get();
    }
}
