package dev.jpto.cli;

/** A bad flag or flag combination found after parsing; exits 2 with its message. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
