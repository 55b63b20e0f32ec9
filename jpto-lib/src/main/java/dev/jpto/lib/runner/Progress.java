package dev.jpto.lib.runner;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of the runner's stages and of work counted in steps (benchmark rounds). The CLI shows the running
 * stage and a bar on a terminal; elsewhere {@link #lines} prints a plain line at every tenth of the steps, and
 * {@link #none} prints nothing. The runner calls {@link #end} before it prints a line of its own.
 */
public interface Progress {
    /** Stage {@code name} has started (a terminal shows it until the stage's own line replaces it). */
    default void stage(String name) {
    }

    void begin(String label, int total);

    /**
     * Stage {@code label} counts its work in {@code unit} ({@link #BYTES} or {@link #TASKS}): {@code done} of
     * {@code total}, read whenever the display redraws; a total may grow as the work goes (tasks submitted so far).
     * Plain lines leave it out: it is for a terminal's bar.
     */
    default void counting(String label, LongSupplier done, LongSupplier total, String unit) {
    }

    /** Units of {@link #counting}. */
    String BYTES = "bytes";
    String TASKS = "tasks";

    /** {@code done} steps of {@code total} are finished. */
    void advance(int done);

    void end();

    static Progress none() {
        return new Progress() {
            @Override
            public void begin(String label, int total) {
            }

            @Override
            public void advance(int done) {
            }

            @Override
            public void end() {
            }
        };
    }

    /** Plain lines, for logs and pipes: {@code [RUN] benchmark round 30/100}. */
    static Progress lines(PrintStream out) {
        return new Progress() {
            private String label = "";
            private int total;
            private int lastTenth;

            @Override
            public void begin(String l, int t) {
                label = l;
                total = t;
                lastTenth = 0;
            }

            @Override
            public void advance(int done) {
                int tenth = total == 0 ? 10 : (int) (10L * done / total);
                if (tenth > lastTenth && done < total) {
                    lastTenth = tenth;
                    out.println(String.format(Locale.ROOT, "[RUN] %s %d/%d", label, done, total));
                }
            }

            @Override
            public void end() {
            }
        };
    }
}
