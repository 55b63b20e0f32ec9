package dev.jpto.compiler.workdir;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A JSON node with its path, so every read that finds the wrong thing throws a {@link FormatException}
 * naming where and what was expected.
 */
record JsonIn(JsonNode node, String path) {
    JsonIn field(String name) {
        if (!node.isObject()) {
            throw new FormatException(path, "expected an object with field '" + name + "', found " + kind(node));
        }
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw new FormatException(path, "missing field '" + name + "'");
        }
        return new JsonIn(v, path + "." + name);
    }

    boolean has(String name) {
        return node.isObject() && node.has(name) && !node.get(name).isNull();
    }

    String text() {
        if (!node.isTextual()) {
            throw new FormatException(path, "expected a string, found " + kind(node));
        }
        return node.textValue();
    }

    /** A name that becomes a file name or key ({@link Verifier#IDENTIFIER_RULE}), never a path. */
    String identifier() {
        String t = text();
        if (!Verifier.isIdentifier(t)) {
            throw error("expected an identifier (" + Verifier.IDENTIFIER_RULE + "; a tensor name becomes the file "
                    + "<name>.npy), found \"" + t + "\"");
        }
        return t;
    }

    /** An integer in {@code [min, max]}: the only way to read an int, so no value is silently narrowed. */
    int integerIn(int min, int max) {
        long v = integer();
        if (v < min || v > max) {
            throw error("expected an integer in [" + min + ", " + max + "], found " + v);
        }
        return (int) v;
    }

    /**
     * A tensor shape of {@code dtype}: its element count and byte size must fit in a long (checked here, where the
     * field is known, not later as an arithmetic error). Extents below 1 are left to the program's own checks.
     */
    long[] shape(DType dtype) {
        long[] shape = longs();
        if (Arrays.stream(shape).allMatch(e -> e > 0)) {
            try {
                long bytes = dtype.byteSize();
                for (long e : shape) {
                    bytes = Math.multiplyExact(bytes, e);
                }
            } catch (ArithmeticException e) {
                throw error("shape " + Arrays.toString(shape) + " of " + dtype.text() + " needs more than "
                        + Long.MAX_VALUE + " bytes (overflows a 64-bit size); no tensor can be that large");
            }
        }
        return shape;
    }

    long integer() {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new FormatException(path, "expected an integer, found " + kind(node));
        }
        return node.longValue();
    }

    double number() {
        if (!node.isNumber()) {
            throw new FormatException(path, "expected a number, found " + kind(node));
        }
        return node.doubleValue();
    }

    boolean bool() {
        if (!node.isBoolean()) {
            throw new FormatException(path, "expected true or false, found " + kind(node));
        }
        return node.booleanValue();
    }

    List<JsonIn> array() {
        if (!node.isArray()) {
            throw new FormatException(path, "expected an array, found " + kind(node));
        }
        List<JsonIn> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            out.add(new JsonIn(node.get(i), path + "[" + i + "]"));
        }
        return out;
    }

    long[] longs() {
        List<JsonIn> items = array();
        long[] out = new long[items.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = items.get(i).integer();
        }
        return out;
    }

    /** Rejects fields other than {@code allowed}: a typo must not be silently ignored. */
    void onlyFields(String... allowed) {
        for (var property : node.properties()) {
            String n = property.getKey();
            boolean ok = false;
            for (String a : allowed) {
                ok |= a.equals(n);
            }
            if (!ok) {
                throw new FormatException(path, "unexpected field '" + n + "' (expected: " + String.join(", ", allowed)
                        + ")");
            }
        }
    }

    FormatException error(String message) {
        return new FormatException(path, message);
    }

    private static String kind(JsonNode n) {
        return n.isTextual() ? "string \"" + n.textValue() + "\"" : n.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                + (n.isValueNode() ? " " + n : "");
    }
}
