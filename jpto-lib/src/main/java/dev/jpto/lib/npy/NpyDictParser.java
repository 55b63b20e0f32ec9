package dev.jpto.lib.npy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the header DICT of a {@code .npy} file: the subset of Python literal syntax numpy writes. Keys must be
 * exactly {@code descr}, {@code fortran_order} and {@code shape}, each once, in any order; strings may use single
 * or double quotes; ints may carry Python 2's {@code L} suffix; trailing commas are allowed where Python allows
 * them. After the closing brace only spaces and the final newline may follow.
 */
final class NpyDictParser {
    /** The three values of a header dict. */
    record Entries(String descr, boolean fortranOrder, long[] shape) {
    }

    private final String text;
    private final Path file;
    private int pos;

    private NpyDictParser(String text, Path file) {
        this.text = text;
        this.file = file;
    }

    static Entries parse(String text, Path file) throws NpyFormatException {
        return new NpyDictParser(text, file).dict();
    }

    private Entries dict() throws NpyFormatException {
        skipSpace();
        expect('{');
        String descr = null;
        Boolean fortran = null;
        long[] shape = null;
        skipSpace();
        while (peek() != '}') {
            int keyAt = pos;
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            switch (key) {
                case "descr" -> {
                    duplicate(descr != null, key, keyAt);
                    if (peek() == '[') {
                        throw error("descr is a list: structured (record) dtypes are not supported; expected a"
                                + " simple type string such as '<f4'");
                    }
                    descr = string();
                }
                case "fortran_order" -> {
                    duplicate(fortran != null, key, keyAt);
                    fortran = bool();
                }
                case "shape" -> {
                    duplicate(shape != null, key, keyAt);
                    shape = tuple();
                }
                default -> throw error("unexpected key '" + key + "'; the header dict must have exactly the keys"
                        + " 'descr', 'fortran_order' and 'shape'");
            }
            skipSpace();
            if (peek() == ',') {
                pos++;
                skipSpace();
            } else if (peek() != '}') {
                throw error("expected ',' or '}' after the value of '" + key + "'");
            }
        }
        pos++;
        while (pos < text.length() && text.charAt(pos) == ' ') {
            pos++;
        }
        if (pos != text.length() - 1 || text.charAt(pos) != '\n') {
            throw error("only spaces and one final newline may follow the header dict");
        }
        List<String> missing = new ArrayList<>();
        if (descr == null) {
            missing.add("'descr'");
        }
        if (fortran == null) {
            missing.add("'fortran_order'");
        }
        if (shape == null) {
            missing.add("'shape'");
        }
        if (!missing.isEmpty()) {
            throw new NpyFormatException(file, "header dict lacks " + String.join(", ", missing)
                    + "; it must have exactly the keys 'descr', 'fortran_order' and 'shape': "
                    + NpyHeaderDescriptor.quote(text));
        }
        return new Entries(descr, fortran, shape);
    }

    private void duplicate(boolean seen, String key, int at) throws NpyFormatException {
        if (seen) {
            pos = at;
            throw error("key '" + key + "' appears twice");
        }
    }

    private String string() throws NpyFormatException {
        char q = peek();
        if (q != '\'' && q != '"') {
            throw error("expected a quoted string");
        }
        int end = text.indexOf(q, pos + 1);
        if (end < 0) {
            throw error("unterminated string");
        }
        String s = text.substring(pos + 1, end);
        if (s.indexOf('\\') >= 0) {
            throw error("escape sequences are not expected in header strings");
        }
        pos = end + 1;
        return s;
    }

    private boolean bool() throws NpyFormatException {
        if (text.startsWith("True", pos)) {
            pos += 4;
            return true;
        }
        if (text.startsWith("False", pos)) {
            pos += 5;
            return false;
        }
        throw error("expected True or False");
    }

    /** A tuple of non-negative ints; a single element needs its trailing comma, as in Python. */
    private long[] tuple() throws NpyFormatException {
        if (peek() != '(') {
            throw error("shape must be a tuple of ints such as (2, 3), (3,) or ()");
        }
        pos++;
        List<Long> dims = new ArrayList<>();
        boolean trailingComma = false;
        skipSpace();
        while (peek() != ')') {
            dims.add(integer());
            skipSpace();
            trailingComma = false;
            if (peek() == ',') {
                pos++;
                trailingComma = true;
                skipSpace();
            } else if (peek() != ')') {
                throw error("expected ',' or ')' in the shape tuple");
            }
        }
        if (dims.size() == 1 && !trailingComma) {
            throw error("'(n)' is an int in Python, not a tuple; a 1-d shape is written '(n,)'");
        }
        pos++;
        long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = dims.get(i);
        }
        return shape;
    }

    private long integer() throws NpyFormatException {
        int start = pos;
        if (peek() == '-') {
            throw error("shape extents must be non-negative");
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos)) && text.charAt(pos) < 128) {
            pos++;
        }
        if (pos == start) {
            throw error("expected a non-negative int in the shape tuple");
        }
        long value;
        try {
            value = Long.parseLong(text, start, pos, 10);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("shape extent does not fit a 64-bit int");
        }
        if (peek() == 'L' || peek() == 'l') {
            pos++;
        }
        return value;
    }

    private char peek() throws NpyFormatException {
        if (pos >= text.length()) {
            throw error("unexpected end of header text");
        }
        return text.charAt(pos);
    }

    private void expect(char c) throws NpyFormatException {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipSpace() {
        while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
            pos++;
        }
    }

    private NpyFormatException error(String rule) {
        String found = pos < text.length() ? NpyHeaderDescriptor.quote(String.valueOf(text.charAt(pos)))
                : "end of text";
        return new NpyFormatException(file, "header dict parse error at character " + pos + " (found " + found
                + "): " + rule + "; header text: " + NpyHeaderDescriptor.quote(text));
    }
}
