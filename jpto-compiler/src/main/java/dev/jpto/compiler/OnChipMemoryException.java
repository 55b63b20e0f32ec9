package dev.jpto.compiler;

/** A kernel's tiles do not fit its core's on-chip buffers on the platform compiled for (bad input: exit 2). */
public final class OnChipMemoryException extends IllegalArgumentException {
    public OnChipMemoryException(String message) {
        super(message);
    }
}
