package dev.jpto.runtime;

import java.util.Arrays;

/**
 * How a task is launched beyond its kernel and arguments: its block count (an SPMD task runs {@code blockNum}
 * blocks of one kernel, each seeing its {@link TaskContext#blockIndex}), whether all blocks must start together
 * ({@code requireSyncStart}), and its explicit dependencies (task ids returned by earlier submits; the original's
 * {@code Arg.set_dependencies}). One task slot, one set of TensorMap entries and edges, whatever the block count.
 *
 * @param blockNum         blocks of the task, 1 or more
 * @param requireSyncStart all blocks must be able to run at once: a block count above the cores that can start
 *                         together fails the submit with code 7
 * @param deps             explicit producers: WAIT|RETAIN edges, the only edges inside a manual scope
 */
public record Launch(int blockNum, boolean requireSyncStart, long[] deps) {
    /** One block, no explicit dependency: what the plain {@code submit} uses. */
    public static final Launch SINGLE = new Launch(1, false, new long[0]);

    public Launch {
        if (blockNum < 1) {
            throw new IllegalArgumentException("block_num must be >= 1, got " + blockNum);
        }
        deps = deps.clone();
    }

    /** A launch of {@code blockNum} blocks. */
    public static Launch blocks(int blockNum) {
        return new Launch(blockNum, false, new long[0]);
    }

    /** A one-block launch after the given tasks. */
    public static Launch after(long... deps) {
        return new Launch(1, false, deps);
    }

    /** This launch with all blocks required to start together. */
    public Launch syncStart() {
        return new Launch(blockNum, true, deps);
    }

    /** This launch with {@code more} explicit dependencies added. */
    public Launch withDeps(long... more) {
        long[] all = Arrays.copyOf(deps, deps.length + more.length);
        System.arraycopy(more, 0, all, deps.length, more.length);
        return new Launch(blockNum, requireSyncStart, all);
    }

    @Override
    public long[] deps() {
        return deps.clone();
    }

    /** How many explicit dependencies (without the copy {@link #deps()} makes). */
    public int depCount() {
        return deps.length;
    }

    /** Explicit dependency {@code i}. */
    public long dep(int i) {
        return deps[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Launch l && l.blockNum == blockNum && l.requireSyncStart == requireSyncStart
                && Arrays.equals(l.deps, deps);
    }

    @Override
    public int hashCode() {
        return (blockNum * 31 + Boolean.hashCode(requireSyncStart)) * 31 + Arrays.hashCode(deps);
    }

    @Override
    public String toString() {
        return "Launch[block_num=" + blockNum + (requireSyncStart ? ", require_sync_start" : "")
                + (deps.length == 0 ? "" : ", deps=" + Arrays.toString(deps)) + "]";
    }
}
