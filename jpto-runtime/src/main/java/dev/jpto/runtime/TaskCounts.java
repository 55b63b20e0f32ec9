package dev.jpto.runtime;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A hook for a progress display: the chip runs started on the calling thread inside {@link #observing} hand their
 * live counts (tasks completed, tasks submitted so far) to the watcher while they run. Reading the counts costs
 * two volatile reads; a run that nobody observes pays one thread-local read at its start.
 */
public final class TaskCounts {
    /** Told when a chip run starts on the observing thread, and when it ends. */
    public interface Watcher {
        void started(LongSupplier completed, LongSupplier submitted);

        void ended();
    }

    private static final ThreadLocal<Watcher> WATCHER = new ThreadLocal<>();

    private TaskCounts() {
    }

    /** Runs {@code body} with {@code watcher} told of the chip runs it starts on this thread. */
    public static <T> T observing(Watcher watcher, Supplier<T> body) {
        Watcher before = WATCHER.get();
        WATCHER.set(watcher);
        try {
            return body.get();
        } finally {
            WATCHER.set(before);
        }
    }

    /** Called by the chip at the start of a run. */
    public static void started(LongSupplier completed, LongSupplier submitted) {
        Watcher w = WATCHER.get();
        if (w != null) {
            w.started(completed, submitted);
        }
    }

    /** Called by the chip at the end of a run, failed or not. */
    public static void ended() {
        Watcher w = WATCHER.get();
        if (w != null) {
            w.ended();
        }
    }
}
