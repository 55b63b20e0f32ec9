package dev.jpto.lib.runner;

import dev.jpto.runtime.Sizes;
import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.List;

/**
 * How many bytes of tensors one {@code jpto run} or {@code jpto exec} may allocate, checked before the first
 * allocation: a work dir declaring a 16GiB output is refused at once instead of filling the host. Tensors live in
 * native memory, which {@code -Xmx} does not bound, hence a budget of its own. The default is
 * {@value #DEFAULT_PERCENT}% of the physical memory (a container's limit where there is one);
 * {@value #FLAG} changes it.
 *
 * @param bytes  the most bytes of tensors a command may hold at once (≥ 1)
 * @param origin where the number comes from, for the refusal: "75% of 23.5GiB physical memory", "--max-memory 1KiB"
 */
public record MemoryBudget(long bytes, String origin) {
    /** The default budget's share of physical memory: the rest is for the JVM, the rings and the OS. */
    public static final int DEFAULT_PERCENT = 75;
    /** The flag that changes the budget. */
    public static final String FLAG = "--max-memory";

    public MemoryBudget {
        if (bytes < 1) {
            throw new IllegalArgumentException(FLAG + " must be at least 1 byte: " + origin);
        }
    }

    /** {@value #DEFAULT_PERCENT}% of this host's physical memory. */
    public static MemoryBudget ofPhysicalMemory() {
        long total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        return new MemoryBudget(Math.max(1, total / 100 * DEFAULT_PERCENT), DEFAULT_PERCENT + "% of the "
                + Sizes.readable(total) + " of physical memory");
    }

    /**
     * The budget {@value #FLAG} {@code text} gives: a byte size as ring_heap takes it ({@code 8GiB}, {@code 65536}).
     *
     * @throws IllegalArgumentException naming the flag, the value and what is allowed
     */
    public static MemoryBudget parse(String text) {
        long bytes;
        try {
            bytes = Sizes.parseBytes(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(FLAG + " " + text + ": " + e.getMessage(), e);
        }
        if (bytes < 1) {
            throw new IllegalArgumentException(FLAG + " must be at least 1 byte: " + FLAG + " " + text
                    + " (e.g. " + FLAG + " 8GiB)");
        }
        return new MemoryBudget(bytes, FLAG + " " + text.strip());
    }

    /**
     * Refuses {@code uses} whose bytes add up to more than this budget, naming the largest tensor, its bytes, the
     * total, the budget and {@value #FLAG}.
     *
     * @throws JitConfigException when they do not fit (nothing has been allocated)
     */
    public void check(List<TensorUse> uses) {
        long total = 0;
        for (TensorUse u : uses) {
            long b = u.bytes();
            total = b > Long.MAX_VALUE - total ? Long.MAX_VALUE : total + b;
        }
        if (total <= bytes) {
            return;
        }
        TensorUse largest = uses.stream().max(Comparator.comparingLong(TensorUse::bytes)).orElseThrow();
        throw new JitConfigException(largest + " needs " + Sizes.readable(largest.bytes()) + " (" + largest.bytes()
                + " bytes); the " + uses.size() + " tensor(s) of the command need " + Sizes.readable(total)
                + " in all, over the memory budget of " + Sizes.readable(bytes) + " (" + origin + "); nothing was "
                + "allocated (give " + FLAG + " SIZE to change the budget, e.g. " + FLAG + " "
                + Sizes.format(roundUp(total)) + ")", null);
    }

    /** {@code bytes} up to a whole GiB, or MiB below a GiB: a budget to suggest. */
    private static long roundUp(long bytes) {
        long unit = bytes >= 1L << 30 ? 1L << 30 : 1L << 20;
        return bytes > Long.MAX_VALUE - unit ? bytes : (bytes + unit - 1) / unit * unit;
    }
}
