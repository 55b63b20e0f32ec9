package dev.jpto.sweep;

import java.io.PrintStream;

/**
 * How a sweep shows its results as they arrive: one line each ({@link #lines}, for logs and pipes), or the CLI's
 * bar on a terminal. Called from the coordinator's loop only, one call at a time.
 */
public interface SweepProgress {
    /**
     * The counts after one more result.
     *
     * @param done       results so far, of {@code total}
     * @param failed     of them, those not as the sweep file expects
     * @param total      cases this run has to run
     * @param etaSeconds the remaining cases at the mean time per result so far
     */
    record Tally(int done, int failed, int total, long etaSeconds) {
        public int remaining() {
            return total - done;
        }
    }

    /**
     * One more result.
     *
     * @param line     the case and its outcome: {@code basic.matmul/tiny … HEAP_RING_DEADLOCK (expected PASS)}
     * @param expected whether it came out as expected
     */
    void result(Tally tally, String line, boolean expected);

    /** A bar clears its line: before a line of the sweep's own, and when the last result is in (or it gave up). */
    default void end() {
    }

    /** {@code [SWEEP] 3/36 done, 1 failed, 33 remaining, ETA 120 s: …} per result. */
    static SweepProgress lines(PrintStream out) {
        return (t, line, expected) -> out.println(String.format(java.util.Locale.ROOT,
                "[SWEEP] %d/%d done, %d failed, %d remaining, ETA %d s: %s", t.done(), t.total(), t.failed(),
                t.remaining(), t.etaSeconds(), line));
    }
}
