package dev.jpto.cli;

import dev.jpto.compiler.l3.L3Program;

/** The {@code --chips N} option: how many simulated chips an L3 program runs on. */
final class L3Chips {
    private L3Chips() {
    }

    /**
     * The chip count to run with (0 = the program's default).
     *
     * @throws UsageException for N outside 1..{@link L3Program#MAX_CHIPS}, devices {@code device} .. device+N-1
     *         past the largest device id, or --chips given for a chip program (which runs on one chip)
     */
    static int of(Integer chips, boolean l3, String program, int device) {
        if (chips == null) {
            return 0;
        }
        if (chips < 1 || chips > L3Program.MAX_CHIPS) {
            throw new UsageException("--chips must be in 1.." + L3Program.MAX_CHIPS + ": --chips " + chips
                    + " (try 2)");
        }
        if (!l3) {
            throw new UsageException("--chips applies to L3 programs; " + program + " is a chip program and runs on "
                    + "one chip (--device picks it)");
        }
        if (device > Integer.MAX_VALUE - (chips - 1)) {
            throw new UsageException("--chips " + chips + " -d " + device + " needs device ids up to "
                    + ((long) device + chips - 1) + ", past the largest device id " + Integer.MAX_VALUE
                    + " (give -d " + (Integer.MAX_VALUE - chips + 1) + " or lower)");
        }
        return chips;
    }
}
