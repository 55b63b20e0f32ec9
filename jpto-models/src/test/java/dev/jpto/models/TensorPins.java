package dev.jpto.models;

import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Pinned tensor contents: one line {@code program preset tensor dtype[shape] sha256} per tensor, read from a
 * resource recorded from an earlier implementation, so a change that alters a single bit of any pinned tensor is
 * caught with its name.
 */
final class TensorPins {
    private final List<String> lines;

    private TensorPins(List<String> lines) {
        this.lines = lines;
    }

    static TensorPins load(String resource) {
        try (InputStream in = TensorPins.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return new TensorPins(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pinned lines of {@code program} at {@code preset}. */
    Set<String> of(String program, String preset) {
        String prefix = program + " " + preset + " ";
        return lines.stream().filter(l -> l.startsWith(prefix)).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The lines {@code tensors} would be pinned with. */
    static Set<String> lines(String program, String preset, Map<String, Tensor> tensors) {
        Set<String> out = new TreeSet<>();
        tensors.forEach((name, t) -> out.add(program + " " + preset + " " + name + " " + t.dtype().text()
                + Arrays.toString(t.shape()).replace(" ", "") + " " + sha256(t)));
        return out;
    }

    /** What differs, for a failure message: pinned lines not produced, produced lines not pinned. */
    static String diff(Set<String> pinned, Set<String> actual) {
        List<String> missing = new ArrayList<>(pinned);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(pinned);
        return "pinned but not produced:\n  " + String.join("\n  ", missing) + "\nproduced but not pinned:\n  "
                + String.join("\n  ", extra);
    }

    /** SHA-256 of a contiguous tensor's bytes. */
    static String sha256(Tensor t) {
        if (!t.isContiguous()) {
            throw new IllegalArgumentException("pins hash contiguous tensors only: " + t);
        }
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            long start = t.offset() * t.dtype().byteSize();
            md.update(t.buffer().asSlice(start, t.byteSize()).asByteBuffer());
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
