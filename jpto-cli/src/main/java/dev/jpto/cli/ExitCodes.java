package dev.jpto.cli;

/** The exit codes of DESIGN.md's command contract. */
final class ExitCodes {
    /** Every output matched its golden (or the command did its job). */
    static final int PASS = 0;
    /** The run finished but an output did not match its golden. */
    static final int VALIDATION_FAIL = 1;
    /** Bad flags, values or configuration; nothing ran. */
    static final int USAGE = 2;
    /** The run failed on the chip (orch/sched error code in the message). */
    static final int RUNTIME = 3;
    /** Interrupted (Ctrl-C): 128 + SIGINT, what a shell reports for a command that SIGINT ended. */
    static final int INTERRUPTED = 130;

    private ExitCodes() {
    }
}
