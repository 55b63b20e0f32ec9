package dev.jpto.lib.npy;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@code .npy} file that jpto cannot read or a tensor it cannot write: the message names the file, what
 * was found and what was expected.
 */
public final class NpyFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public NpyFormatException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    /** The file the problem is in. */
    public Path file() {
        return file;
    }
}
