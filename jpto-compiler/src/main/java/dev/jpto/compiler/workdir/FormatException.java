package dev.jpto.compiler.workdir;

/** A JSON document does not have the expected layout; {@link #path()} is where ("$.body[2].args[0]"). */
public final class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String path;

    public FormatException(String path, String message) {
        super("at " + path + ": " + message);
        this.path = path;
    }

    public String path() {
        return path;
    }
}
