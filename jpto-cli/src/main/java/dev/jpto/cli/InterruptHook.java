package dev.jpto.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT, and SIGTERM) makes the JVM run its shutdown hooks; this one really stops the command rather than
 * let the process die under it: it interrupts the command's thread (a chip run then stops with CANCELLED and closes
 * its chip, the golden runner starts no further stage), waits a bounded time for the command to return, and reports
 * how long that took and whether any chip thread is left. The JVM then exits with 128 + the signal (130 for SIGINT).
 * A host stage of the golden runner (inputs, golden, validation) is plain computation that cannot be interrupted:
 * Ctrl-C there ends the process after the bound, without waiting for the stage (the process exit ends it).
 */
final class InterruptHook {
    /**
     * How long the hook waits for the command to stop before letting the JVM exit anyway: under a second, so Ctrl-C
     * ends the process within one even in a host stage (a chip run stops in well under this: 83–699 ms measured).
     */
    static final Duration STOP_BOUND = Duration.ofMillis(800);

    private final Thread command;
    private final PrintStream err;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean done;

    private InterruptHook(Thread command, PrintStream err) {
        this.command = command;
        this.err = err;
    }

    static InterruptHook install(Thread command, PrintStream err) {
        InterruptHook hook = new InterruptHook(command, err);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("jpto-interrupt").unstarted(hook::onShutdown));
        return hook;
    }

    /** The command returned: a shutdown from now on is the normal exit, not an interrupt. */
    void commandFinished() {
        done = true;
        finished.countDown();
    }

    private void onShutdown() {
        if (done) {
            return;
        }
        long start = System.nanoTime();
        command.interrupt();
        boolean stopped;
        try {
            stopped = finished.await(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            stopped = false;
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        List<String> left = chipThreads();
        String threads = left.isEmpty() ? "no chip threads left" : left.size() + " chip thread(s) still running "
                + left;
        err.println(stopped ? "jpto: interrupted: the command stopped in " + ms + " ms; " + threads
                : "jpto: interrupted: the command did not stop within " + STOP_BOUND.toMillis() + " ms (host stages "
                + "such as generating inputs or computing the golden stop only at their end); exiting anyway; "
                + threads);
        err.flush();
    }

    /** Scheduler threads of open chips (named jpto-PLATFORM-DEVICE-sched-N by the runtime). */
    private static List<String> chipThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("jpto-") && n.contains("-sched-")).sorted().toList();
    }
}
