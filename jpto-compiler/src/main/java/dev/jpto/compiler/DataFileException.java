package dev.jpto.compiler;

import java.nio.file.Path;

/**
 * A file named by data is refused ({@link DataFiles}): it leaves its directory, is not a regular file, or is too
 * large. An IllegalArgumentException, as bad input is; {@link #reason()} is the message without the file.
 */
public final class DataFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final String reason;

    public DataFileException(Path file, String reason) {
        super(file + ": " + reason);
        this.file = file;
        this.reason = reason;
    }

    /** The file (or directory) at fault. */
    public Path file() {
        return file;
    }

    /** What is wrong with it and what was expected, without the file name. */
    public String reason() {
        return reason;
    }
}
