package dev.jpto.cli;

import dev.jpto.lib.runner.Progress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * On a terminal: the running stage ({@code [RUN] compute golden …}) until its own line replaces it, and a bar for
 * counted steps, redrawn in place with {@code \r} at most every 100 ms and on the last step.
 */
final class TerminalProgress implements Progress {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream out;
    private String label = "";
    private int total;
    private long lastDraw;
    private boolean drawn;

    TerminalProgress(PrintStream out) {
        this.out = out;
    }

    @Override
    public void stage(String name) {
        label = name;
        out.print("\r[RUN] " + name + " …");
        out.flush();
        drawn = true;
    }

    @Override
    public void begin(String l, int t) {
        label = l;
        total = t;
        lastDraw = 0;
        drawn = false;
        draw(0);
    }

    @Override
    public void advance(int done) {
        long now = System.nanoTime();
        if (done == total || now - lastDraw >= REDRAW_NANOS) {
            draw(done);
        }
    }

    @Override
    public void end() {
        if (drawn) {
            // clear the bar so the next [RUN] line starts on a clean line
            out.print("\r" + " ".repeat(WIDTH + label.length() + 32) + "\r");
            out.flush();
            drawn = false;
        }
    }

    private void draw(int done) {
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        out.print(String.format(Locale.ROOT, "\r[RUN] %s [%s%s] %d/%d", label, "#".repeat(filled),
                ".".repeat(WIDTH - filled), done, total));
        out.flush();
        lastDraw = System.nanoTime();
        drawn = true;
    }
}
