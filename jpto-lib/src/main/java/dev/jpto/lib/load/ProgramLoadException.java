package dev.jpto.lib.load;

/**
 * A user's programs could not be loaded: a source file that does not compile (the message holds javac's
 * diagnostics as {@code file:line:column: message}), a jar or directory that does not exist or declares no
 * program, a provider that fails. The CLI reports it as a usage error (exit 2).
 */
public final class ProgramLoadException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ProgramLoadException(String message) {
        super(message);
    }

    public ProgramLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
