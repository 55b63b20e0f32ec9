package dev.jpto.cli;

/** The {@code --chips N} option: how many simulated chips an L3 program runs on. */
final class L3Chips {
    private L3Chips() {
    }

    /**
     * The chip count to run with (0 = the program's default).
     *
     * @throws UsageException for N < 1, or --chips given for a chip program (which runs on one chip)
     */
    static int of(Integer chips, boolean l3, String program) {
        if (chips == null) {
            return 0;
        }
        if (chips < 1) {
            throw new UsageException("--chips must be >= 1: --chips " + chips + " (try 2)");
        }
        if (!l3) {
            throw new UsageException("--chips applies to L3 programs; " + program + " is a chip program and runs on "
                    + "one chip (--device picks it)");
        }
        return chips;
    }
}
