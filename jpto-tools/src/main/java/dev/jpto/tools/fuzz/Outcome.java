package dev.jpto.tools.fuzz;

import dev.jpto.runtime.ErrorCode;

/** How one fuzz case ended: the reference's result, a defined ring error, or a finding. */
public sealed interface Outcome {
    /** The chip's outputs equal the reference's bit for bit. */
    record Pass(int tasks) implements Outcome {
    }

    /**
     * A defined runtime error the case's ring sizes explain (a ring, pool or scope too small for the program), raised
     * within the deadline.
     */
    record ExpectedError(ErrorCode code, String message) implements Outcome {
    }

    /** What a finding is. */
    enum Kind { WRONG_RESULT, HANG, UNEXPECTED_ERROR }

    /**
     * Something the runtime must not do: a wrong result, no result within the deadline, or any other error.
     *
     * @param code the runtime error code when the error was a ChipRuntimeException, else null
     */
    record Finding(Kind kind, ErrorCode code, String detail) implements Outcome {
        /** What must stay the same while shrinking: the kind, and the error code or exception class. */
        public String signature() {
            if (kind != Kind.UNEXPECTED_ERROR) {
                return kind.name();
            }
            if (code != null) {
                return kind + " " + code;
            }
            int colon = detail.indexOf(':');
            return kind + " " + (colon > 0 ? detail.substring(0, colon) : detail);
        }

        @Override
        public String toString() {
            return kind + (code == null ? "" : " " + code.code() + " " + code) + ": " + detail;
        }
    }
}
