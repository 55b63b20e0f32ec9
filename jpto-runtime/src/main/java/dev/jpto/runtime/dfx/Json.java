package dev.jpto.runtime.dfx;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams a JSON file (traces can be large) into place atomically ({@link AtomicFile}), creating its directory;
 * I/O errors name the file. Public for the device timeline's trace; the package is not exported.
 */
public final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** What a file holds, written to its generator. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private Json() {
    }

    /** Writes {@code file} (creating its directory) atomically; returns it. */
    public static Path write(Path file, Body body) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            AtomicFile.write(file, tmp -> {
                try (JsonGenerator g = FACTORY.createGenerator(tmp.toFile(), JsonEncoding.UTF8)) {
                    body.write(g);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    static void longArray(JsonGenerator g, String name, long[] values) throws IOException {
        g.writeFieldName(name);
        longArray(g, values);
    }

    static void longArray(JsonGenerator g, long[] values) throws IOException {
        g.writeArray(values, 0, values.length);
    }
}
