package dev.jpto.compiler;

import java.nio.file.Path;

/**
 * A work dir cannot be written or loaded: names the file and what was expected of it
 * (e.g. {@code manifest.json: at $.format_version: format_version 2 is not supported ...}).
 */
public final class WorkDirException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;

    public WorkDirException(Path file, String message) {
        super(file + ": " + message);
        this.file = file;
    }

    public WorkDirException(Path file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
    }

    /** The file (or directory) at fault. */
    public Path file() {
        return file;
    }
}
