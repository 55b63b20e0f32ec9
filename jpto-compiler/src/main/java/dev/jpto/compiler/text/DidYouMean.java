package dev.jpto.compiler.text;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The one rule for "did you mean" on a misspelt name (a program, a preset, a runtime_cfg key): the valid names
 * nearest to what was given by edit distance, when near enough to be a typo rather than a different word.
 */
public final class DidYouMean {
    /** At most this many suggestions: more than that is a list, which the messages already print. */
    private static final int MAX_SUGGESTIONS = 3;

    private DidYouMean() {
    }

    /**
     * The valid names closest to {@code given}, nearest first: those within a third of the longer name's length
     * in edits (at least 1, at most 3; case ignored), or whose last dot-separated part is {@code given}
     * ({@code matmul} for {@code basic.matmul}). Empty when nothing is close.
     */
    public static List<String> suggestions(String given, Collection<String> valid) {
        String g = given.toLowerCase(Locale.ROOT);
        record Scored(String name, int distance) {
        }
        return valid.stream()
                .map(v -> new Scored(v, v.toLowerCase(Locale.ROOT).endsWith("." + g) ? 0
                        : distance(g, v.toLowerCase(Locale.ROOT))))
                .filter(s -> !s.name().equals(given) && s.distance() <= limit(given, s.name()))
                .sorted(java.util.Comparator.comparingInt(Scored::distance).thenComparing(Scored::name))
                .limit(MAX_SUGGESTIONS).map(Scored::name).toList();
    }

    /** {@code "; did you mean 'a' or 'b'?"}, or "" when nothing is close: appended to an unknown-name message. */
    public static String hint(String given, Collection<String> valid) {
        List<String> s = suggestions(given, valid);
        return s.isEmpty() ? "" : "; did you mean " + String.join(" or ", s.stream().map(n -> "'" + n + "'")
                .toList()) + "?";
    }

    private static int limit(String a, String b) {
        return Math.clamp(Math.max(a.length(), b.length()) / 3, 1, 3);
    }

    /** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
