package dev.jpto.sweep;

import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.lib.runner.JitConfigException;
import dev.jpto.lib.runner.MemoryBudget;
import dev.jpto.lib.runner.TensorUse;
import dev.jpto.runtime.Sizes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How many cases run at once on one member: the one rule of {@code jpto sweep} (embedded) and {@code jpto worker}.
 * It is the least of half the processors (a case's simulated chip runs threads of its own), the memory available
 * divided by the largest case's expected footprint, and {@code --max-parallel}/{@code --slots} when given; at least
 * one.
 *
 * <p>A case's footprint is what {@code jpto run} would allocate for its tensors at that preset — every input once,
 * every output for the golden, the run, an initial value when it has one and the benchmark's copy — plus
 * {@link #CASE_BASELINE} for the rest of one run in the JVM (compiled program, task records, ring bookkeeping,
 * garbage between collections). A worker does not know its cases in advance: it counts the baseline only.
 *
 * @param slots  cases at once, ≥ 1
 * @param reason how it was chosen, for the start line: {@code 2 (half of 4 processors; 3.0GiB / 1.1GiB per case)}
 */
public record Concurrency(int slots, String reason) {
    /** A case's memory besides its tensors. */
    public static final long CASE_BASELINE = 256L << 20;

    /**
     * The rule, from figures.
     *
     * @param processors     available processors
     * @param availableBytes memory the cases may share
     * @param largestCase    the largest case's footprint in bytes (≥ 1)
     * @param cap            the user's --max-parallel or --slots, or null
     */
    public static Concurrency of(int processors, long availableBytes, long largestCase, Integer cap) {
        if (cap != null && cap < 1) {
            throw new IllegalArgumentException("the cases at once must be >= 1: " + cap + " (try "
                    + Math.max(1, processors / 2) + ")");
        }
        int cores = Math.max(1, processors / 2);
        long memory = Math.max(1, availableBytes / Math.max(1, largestCase));
        int slots = (int) Math.min(cores, memory);
        if (cap != null) {
            slots = Math.min(slots, cap);
        }
        String why = String.format(Locale.ROOT, "half of %d processor(s) = %d; %s available / %s per case = %d%s",
                processors, cores, Sizes.readable(availableBytes), Sizes.readable(largestCase), memory,
                cap == null ? "" : "; at most " + cap + " asked");
        return new Concurrency(slots, why);
    }

    /** The rule on this host for cases whose largest footprint is {@code largestCase} bytes. */
    public static Concurrency onThisHost(long largestCase, Integer cap) {
        return of(Runtime.getRuntime().availableProcessors(), availableMemory(), largestCase, cap);
    }

    /** A worker's rule: its cases are not known yet, so each counts {@link #CASE_BASELINE}. */
    public static Concurrency forWorker(Integer slots) {
        return onThisHost(CASE_BASELINE, slots);
    }

    /** The rule for {@code cases}: their largest footprint on this host. */
    static Concurrency forCases(List<SweepCase> cases, ProgramRefs refs, Integer cap) {
        long largest = CASE_BASELINE;
        java.util.Set<String> seen = new java.util.HashSet<>(); // a program's preset is built once
        for (SweepCase c : cases) {
            if (seen.add(c.program() + "\n" + c.preset() + "\n" + (c.bench() > 0))) {
                largest = Math.max(largest, footprint(refs.resolve(c.program()).spec(c.preset()), c.bench() > 0));
            }
        }
        return onThisHost(largest, cap);
    }

    /** A case's expected peak: its tensors as {@code jpto run} allocates them, plus {@link #CASE_BASELINE}. */
    static long footprint(ProgramSpec spec, boolean bench) {
        List<TensorUse> uses = new ArrayList<>();
        spec.inputs().forEach(in -> uses.add(new TensorUse("input", new TensorDecl(in.name(), in.dtype(),
                in.shape()), 1)));
        spec.outputs().forEach(out -> uses.add(new TensorUse("output", out,
                2 + (spec.outputFills().containsKey(out.name()) ? 1 : 0) + (bench ? 1 : 0))));
        long bytes = CASE_BASELINE;
        for (TensorUse u : uses) {
            long b;
            try {
                b = u.bytes();
            } catch (JitConfigException e) {
                return Long.MAX_VALUE; // refused when it runs; alone meanwhile
            }
            bytes = b > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : bytes + b;
        }
        return bytes;
    }

    /**
     * The memory cases may share: Linux's MemAvailable (free plus reclaimable cache) when it can be read, never
     * more than the default memory budget ({@value MemoryBudget#DEFAULT_PERCENT}% of physical memory).
     */
    static long availableMemory() {
        long budget = MemoryBudget.ofPhysicalMemory().bytes();
        return memAvailable(Path.of("/proc/meminfo")).stream().map(a -> Math.min(a, budget)).findFirst()
                .orElse(budget);
    }

    /** MemAvailable of a /proc/meminfo file, in bytes; empty when it has none. */
    static OptionalLong memAvailable(Path meminfo) {
        try {
            for (String line : Files.readAllLines(meminfo)) {
                if (line.startsWith("MemAvailable:")) {
                    String[] f = line.substring("MemAvailable:".length()).trim().split("\\s+");
                    return OptionalLong.of(Long.parseLong(f[0]) * 1024); // always kB
                }
            }
        } catch (IOException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }
}
