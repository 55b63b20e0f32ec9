package dev.jpto.isa.kernel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cursor over one line of kernel text: tokens (identifiers, keywords, integers, punctuation), the column
 * of the next token, and {@link KernelParseException}s that say where and what was expected.
 */
abstract class TextCursor {
    /** One non-blank line with its comment removed. */
    protected record Line(int number, String text) {
    }

    protected Line line;
    protected int pos;

    /** An unsigned decimal up to 2^63 when negative (so -9223372036854775808 reads), else up to 2^63-1. */
    protected long magnitude(boolean negative) {
        int start = pos;
        while (pos < line.text().length() && isDigit(line.text().charAt(pos))) {
            pos++;
        }
        String digits = line.text().substring(start, pos);
        try {
            long v = Long.parseUnsignedLong(digits);
            if (v < 0 && !(negative && v == Long.MIN_VALUE)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw error(start, "integer " + (negative ? "-" : "") + digits + " is out of the int64 range");
        }
    }

    protected void begin(Line l) {
        line = l;
        pos = 0;
    }

    protected static int leadingSpaces(Line l) {
        int i = 0;
        while (i < l.text().length() && l.text().charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    protected void indentation(int want) {
        int got = leadingSpaces(line);
        if (got < line.text().length() && line.text().charAt(got) == '\t') {
            throw error(got, "indent with spaces, not tabs");
        }
        if (got != want) {
            throw error(got, "expected an indentation of " + want + " spaces"
                    + (want > 0 ? " (the enclosing loop's body)" : "") + ", got " + got);
        }
        pos = got;
    }

    /** Skips spaces and returns the position of the next token (for error columns). */
    protected int mark() {
        skipSpaces();
        return pos;
    }

    protected char charAt(int i) {
        return i < line.text().length() ? line.text().charAt(i) : '\0';
    }

    protected char peek() {
        return charAt(pos);
    }

    protected void skipSpaces() {
        while (pos < line.text().length() && (line.text().charAt(pos) == ' ' || line.text().charAt(pos) == '\t')) {
            pos++;
        }
    }

    /** ASCII digits only: Character.isDigit would also accept other scripts' digits. */
    protected static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    protected static boolean isIdentStart(char c) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    protected static boolean isIdentPart(char c) {
        return isIdentStart(c) || (c >= '0' && c <= '9');
    }

    protected String ident(String what) {
        skipSpaces();
        int start = pos;
        if (!isIdentStart(peek())) {
            throw error(start, "expected " + what + ", got " + found());
        }
        while (isIdentPart(peek())) {
            pos++;
        }
        return line.text().substring(start, pos);
    }

    protected String word(Pattern p, String what) {
        skipSpaces();
        Matcher m = p.matcher(line.text()).region(pos, line.text().length());
        if (!m.lookingAt()) {
            throw error(pos, "expected " + what + ", got " + found());
        }
        pos = m.end();
        return m.group();
    }

    protected void keyword(String kw) {
        skipSpaces();
        int start = pos;
        if (!line.text().startsWith(kw, pos) || isIdentPart(charAt(pos + kw.length()))) {
            throw error(start, "expected '" + kw + "', got " + found());
        }
        pos += kw.length();
    }

    protected void expect(char c) {
        skipSpaces();
        if (peek() != c) {
            throw error(pos, "expected '" + c + "', got " + found());
        }
        pos++;
    }

    protected long unsigned(String what, long max) {
        skipSpaces();
        int start = pos;
        if (!isDigit(peek())) {
            throw error(start, "expected " + what + " (a non-negative integer), got " + found());
        }
        long v = magnitude(false);
        if (v > max) {
            throw error(start, what + " must be at most " + max + ", got " + v);
        }
        return v;
    }

    protected void endOfLine() {
        skipSpaces();
        if (pos != line.text().length()) {
            throw error(pos, "expected end of line, got " + found());
        }
    }

    /** What is at the cursor, for messages: a quoted word or character, or "end of line". */
    protected String found() {
        if (pos >= line.text().length()) {
            return "end of line";
        }
        int end = pos;
        while (end < line.text().length() && isIdentPart(line.text().charAt(end))) {
            end++;
        }
        return "'" + line.text().substring(pos, Math.max(end, pos + 1)) + "'";
    }

    protected KernelParseException error(int col, String message) {
        return new KernelParseException(line.number(), col + 1, message);
    }
}
