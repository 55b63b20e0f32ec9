package dev.jpto.compiler.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An integer affine expression over orchestration loop variables: {@code constant + Σ coeff × var}.
 * Terms are kept sorted by variable name with no zero coefficients, so equal expressions are equal records.
 */
public record Affine(long constant, List<Term> terms) {
    /** One {@code coeff × var} term. */
    public record Term(String var, long coeff) {
    }

    public Affine {
        TreeMap<String, Long> merged = new TreeMap<>();
        for (Term t : terms) {
            merged.merge(t.var(), t.coeff(), Math::addExact);
        }
        List<Term> norm = new ArrayList<>();
        for (Map.Entry<String, Long> e : merged.entrySet()) {
            if (e.getValue() != 0) {
                norm.add(new Term(e.getKey(), e.getValue()));
            }
        }
        terms = List.copyOf(norm);
    }

    public static Affine of(long constant) {
        return new Affine(constant, List.of());
    }

    public static Affine var(String name) {
        return new Affine(0, List.of(new Term(name, 1)));
    }

    public boolean isConstant() {
        return terms.isEmpty();
    }

    public Affine plus(Affine other) {
        List<Term> all = new ArrayList<>(terms);
        all.addAll(other.terms);
        return new Affine(Math.addExact(constant, other.constant), all);
    }

    public Affine plus(long c) {
        return new Affine(Math.addExact(constant, c), terms);
    }

    public Affine minus(Affine other) {
        return plus(other.times(-1));
    }

    public Affine minus(long c) {
        return plus(-c);
    }

    public Affine times(long factor) {
        List<Term> scaled = new ArrayList<>();
        for (Term t : terms) {
            scaled.add(new Term(t.var(), Math.multiplyExact(t.coeff(), factor)));
        }
        return new Affine(Math.multiplyExact(constant, factor), scaled);
    }

    /** Value under an environment of loop variables; a missing variable is an IR bug caught by the verifier. */
    public long eval(Map<String, Long> env) {
        long v = constant;
        for (Term t : terms) {
            Long x = env.get(t.var());
            if (x == null) {
                throw new IllegalStateException("loop variable '" + t.var() + "' is not defined here: " + this);
            }
            v = Math.addExact(v, Math.multiplyExact(t.coeff(), x));
        }
        return v;
    }

    /** "64*i + 2*j + 3", "0": how the IR dump and error messages print an index. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Term t : terms) {
            if (!sb.isEmpty()) {
                sb.append(t.coeff() < 0 ? " - " : " + ");
            } else if (t.coeff() < 0) {
                sb.append('-');
            }
            long c = Math.abs(t.coeff());
            if (c != 1) {
                sb.append(c).append('*');
            }
            sb.append(t.var());
        }
        if (sb.isEmpty()) {
            return Long.toString(constant);
        }
        if (constant != 0) {
            sb.append(constant < 0 ? " - " : " + ").append(Math.abs(constant));
        }
        return sb.toString();
    }

    /**
     * Parses the {@link #toString()} form back: terms {@code N}, {@code var} or {@code N*var} joined by
     * {@code +} and {@code -}. Rejects anything else, naming the text and the position.
     */
    public static Affine parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("index expression is empty");
        }
        long constant = 0;
        List<Term> terms = new ArrayList<>();
        int pos = 0;
        boolean first = true;
        while (pos < s.length()) {
            long sign = 1;
            pos = skipSpaces(s, pos);
            if (!first || s.charAt(pos) == '-') {
                char c = s.charAt(pos);
                if (c == '+' || c == '-') {
                    sign = c == '-' ? -1 : 1;
                    pos = skipSpaces(s, pos + 1);
                } else {
                    throw bad(text, pos, "'+' or '-'");
                }
            }
            first = false;
            int start = pos;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_'
                    || s.charAt(pos) == '*')) {
                pos++;
            }
            String term = s.substring(start, pos);
            int star = term.indexOf('*');
            try {
                if (star >= 0) {
                    long coeff = Long.parseLong(term.substring(0, star));
                    terms.add(new Term(identifier(text, start + star + 1, term.substring(star + 1)),
                            Math.multiplyExact(sign, coeff)));
                } else if (!term.isEmpty() && Character.isDigit(term.charAt(0))) {
                    constant = Math.addExact(constant, Math.multiplyExact(sign, Long.parseLong(term)));
                } else {
                    terms.add(new Term(identifier(text, start, term), sign));
                }
            } catch (NumberFormatException e) {
                throw bad(text, start, "an integer, a variable or N*variable");
            }
            pos = skipSpaces(s, pos);
        }
        return new Affine(constant, terms);
    }

    private static int skipSpaces(String s, int pos) {
        while (pos < s.length() && s.charAt(pos) == ' ') {
            pos++;
        }
        return pos;
    }

    private static String identifier(String text, int pos, String name) {
        if (name.isEmpty() || !(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_')
                || name.indexOf('*') >= 0) {
            throw bad(text, pos, "a variable name");
        }
        return name;
    }

    private static IllegalArgumentException bad(String text, int pos, String expected) {
        return new IllegalArgumentException("index expression '" + text + "': expected " + expected
                + " at position " + pos);
    }
}
