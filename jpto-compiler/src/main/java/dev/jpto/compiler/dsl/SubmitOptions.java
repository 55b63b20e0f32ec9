package dev.jpto.compiler.dsl;

import dev.jpto.compiler.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@link Orch#submit(SubmitOptions, KernelRef, TaskArg...)} launches a task: its block count (an SPMD task;
 * index arguments may use {@link Orch#BLOCK_IDX}), a label later submits can name, and the labelled submits it runs
 * after (its explicit dependencies; in a {@link Orch#manualScope manual scope} the only ones), and whether all blocks
 * must start together ({@code require_sync_start}; a run fails with code 7 when the platform cannot start them).
 */
public record SubmitOptions(int blockNum, String label, List<String> after, boolean requireSyncStart) {
    public static final SubmitOptions NONE = new SubmitOptions(1, null, List.of());

    public SubmitOptions {
        if (blockNum < 1) {
            throw new IllegalArgumentException("block_num must be >= 1, got " + blockNum);
        }
        after = List.copyOf(after);
    }

    public SubmitOptions(int blockNum, String label, List<String> after) {
        this(blockNum, label, after, false);
    }

    /** {@code blockNum} blocks. */
    public static SubmitOptions blocks(int blockNum) {
        return new SubmitOptions(blockNum, null, List.of());
    }

    /** One block, named {@code label}. */
    public static SubmitOptions labelled(String label) {
        return new SubmitOptions(1, label, List.of());
    }

    /** One block, after the submits labelled {@code labels}. */
    public static SubmitOptions after(String... labels) {
        return new SubmitOptions(1, null, List.of(labels));
    }

    public SubmitOptions withBlocks(int n) {
        return new SubmitOptions(n, label, after, requireSyncStart);
    }

    public SubmitOptions withLabel(String name) {
        return new SubmitOptions(blockNum, name, after, requireSyncStart);
    }

    /** These options with all blocks required to start together ({@code require_sync_start}). */
    public SubmitOptions syncStart() {
        return new SubmitOptions(blockNum, label, after, true);
    }

    public SubmitOptions withAfter(String... labels) {
        List<String> all = new ArrayList<>(after);
        all.addAll(List.of(labels));
        return new SubmitOptions(blockNum, label, all, requireSyncStart);
    }

    Stmt.Submit submit(String kernel, dev.jpto.runtime.CoreType type, List<dev.jpto.compiler.ir.SubmitArg> args) {
        return new Stmt.Submit(kernel, type, args, blockNum, label, after, requireSyncStart, null);
    }

    Stmt.Submit submitMixed(dev.jpto.compiler.ir.MixedLanes lanes, List<dev.jpto.compiler.ir.SubmitArg> args) {
        return Stmt.Submit.mixed(lanes, args, blockNum, label, after, requireSyncStart);
    }
}
