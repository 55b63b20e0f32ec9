package dev.jpto.isa.kernel;

import java.io.Serial;

/** A syntax or reference error in kernel text, at a 1-based line and column. */
public final class KernelParseException extends IllegalArgumentException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    public KernelParseException(int line, int column, String message) {
        super(line + ":" + column + ": " + message);
        this.line = line;
        this.column = column;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
