package dev.jpto.sweep;

/** A sweep file that cannot be run: its message names the file, the line and what is allowed (exit 2). */
public final class SweepFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public SweepFileException(String message) {
        super(message);
    }
}
