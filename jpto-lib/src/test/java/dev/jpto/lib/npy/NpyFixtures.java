package dev.jpto.lib.npy;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The numpy-written fixtures under src/test/resources/npy and the formulas their values were made from. */
final class NpyFixtures {
    private NpyFixtures() {
    }

    static Path path(String name) {
        URL url = NpyFixtures.class.getResource("/npy/" + name);
        if (url == null) {
            throw new IllegalStateException("fixture /npy/" + name + " is missing; run generate_fixtures.py");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    // Same table as generate_fixtures.py.
    static double fFloat(long i) {
        return (i - 5) * 0.375;
    }

    static double fF8(long i) {
        return (i - 5) * 0.1;
    }

    static long fInt(long i) {
        return (i * 37) % 251 - 125;
    }

    static long fU1(long i) {
        return (i * 37) % 256;
    }

    static long fBool(long i) {
        return i % 3 == 0 ? 1 : 0;
    }

    static long fI8(long i) {
        return (i - 3) * 3_000_000_000_000_000_007L;
    }
}
