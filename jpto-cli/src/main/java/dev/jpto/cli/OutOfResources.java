package dev.jpto.cli;

import dev.jpto.lib.runner.MemoryBudget;
import dev.jpto.runtime.Sizes;
import java.util.Optional;

/**
 * An {@link OutOfMemoryError} or {@link StackOverflowError} as one line: what ran out and what to change. Either
 * may reach a command from another thread (a chip's scheduler wraps it in its error; an L3 device thread in an
 * ExecutionException), so the cause chain is searched too.
 */
final class OutOfResources {
    private static final long GIB = 1L << 30;

    private OutOfResources() {
    }

    /** The first OutOfMemoryError or StackOverflowError in {@code t}'s cause chain. */
    static Optional<VirtualMachineError> in(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof OutOfMemoryError || c instanceof StackOverflowError) {
                return Optional.of((VirtualMachineError) c);
            }
        }
        return Optional.empty();
    }

    /** What ran out, and the setting that gives more of it. */
    static String describe(VirtualMachineError e) {
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof StackOverflowError) {
            return "out of stack space (StackOverflowError): something nests too deeply; give threads a larger "
                    + "stack with JPTO_JAVA_OPTS=-Xss64m";
        }
        if (detail.startsWith("Unable to allocate") || detail.contains("direct buffer memory")) {
            // tensors are native memory, which -Xmx does not bound
            return "out of native memory (" + detail + "): the host cannot supply that much memory for tensors; "
                    + "use smaller sizes (run and exec refuse tensors over " + MemoryBudget.FLAG
                    + " before allocating them)";
        }
        long max = Runtime.getRuntime().maxMemory();
        long suggestGiB = Math.max(1, (2 * max + GIB - 1) / GIB);
        return "out of Java heap memory (" + detail + "; maximum heap " + Sizes.readable(max) + "): give the JVM "
                + "more, e.g. JPTO_JAVA_OPTS=-Xmx" + suggestGiB + "g, or use smaller sizes";
    }
}
