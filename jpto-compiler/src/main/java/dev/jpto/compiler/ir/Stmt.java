package dev.jpto.compiler.ir;

import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ScopeKind;
import java.util.List;
import java.util.Objects;

/** An orchestration statement. The orchestration body is a list of these, run by one orchestrator thread. */
public sealed interface Stmt {
    /** {@code for var in range(start, end, step)}; bounds may use enclosing loop variables. */
    record For(String var, Affine start, Affine end, long step, List<Stmt> body) implements Stmt {
        public For {
            body = List.copyOf(body);
        }
    }

    /**
     * A runtime scope: tasks submitted inside are retired from their ring when it closes. In a MANUAL scope tasks
     * depend only on the submits they name in {@link Submit#after}; no auto scope may open inside one.
     */
    record Scope(List<Stmt> body, ScopeKind kind) implements Stmt {
        public Scope {
            body = List.copyOf(body);
            Objects.requireNonNull(kind, "kind");
        }

        public Scope(List<Stmt> body) {
            this(body, ScopeKind.AUTO);
        }

        /** This scope, of the same kind, around {@code newBody}. */
        public Scope withBody(List<Stmt> newBody) {
            return new Scope(newBody, kind);
        }
    }

    /**
     * An intermediate tensor, allocated on the heap ring by the first task that names it as OUTPUT
     * (which must be in the same loop body); it lives until every task that uses it has finished.
     */
    record Alloc(TensorDecl tensor) implements Stmt {
    }

    /**
     * {@code var = read(element)}: an orchestration-time read of one integer element (the original's
     * {@code pl.read}), waiting for the tasks that write it; {@code var} is an index in [0, max] for the rest of
     * the enclosing block (a data-dependent trip count). {@code max} is the bound the planner sizes rings for;
     * a value outside [0, max] fails the run.
     */
    record Read(String var, TensorExpr element, long max) implements Stmt {
    }

    /**
     * Submits one task running {@code kernel} on a core of type {@code coreType}, as {@code blockNum} blocks (an
     * SPMD task: index arguments may use {@link #BLOCK_IDX}, evaluated per block, and {@link #BLOCK_NUM}). A
     * {@code label} (or null) names the task for later submits' {@code after} lists: explicit dependencies on the
     * latest task each named submit produced. {@code requireSyncStart}: all blocks must start together (code 7 when
     * the platform cannot). {@code mixed} (or null): a mixed task whose lanes run those kernels on one cluster per
     * block; then {@code kernel} is {@link MixedLanes#taskName()}, {@code coreType} AIC (a block holds a cluster)
     * and index arguments may also use {@link #SUB_BLOCK_IDX}.
     */
    record Submit(String kernel, CoreType coreType, List<SubmitArg> args, int blockNum, String label,
                  List<String> after, boolean requireSyncStart, MixedLanes mixed) implements Stmt {
        /** The index variable that is the block's index in [0, blockNum) inside a submit's index arguments. */
        public static final String BLOCK_IDX = "block_idx";
        /** The index variable that is the submit's block count. */
        public static final String BLOCK_NUM = "block_num";
        /** In a mixed submit: the vector lane running the kernel (0 for AIV0 and the cube lane, 1 for AIV1). */
        public static final String SUB_BLOCK_IDX = "sub_block_idx";

        public Submit {
            args = List.copyOf(args);
            after = List.copyOf(after);
        }

        public Submit(String kernel, CoreType coreType, List<SubmitArg> args, int blockNum, String label,
                      List<String> after) {
            this(kernel, coreType, args, blockNum, label, after, false, null);
        }

        public Submit(String kernel, CoreType coreType, List<SubmitArg> args) {
            this(kernel, coreType, args, 1, null, List.of());
        }

        /** A mixed submit of {@code lanes} (kernel name and core type follow from them). */
        public static Submit mixed(MixedLanes lanes, List<SubmitArg> args, int blockNum, String label,
                                   List<String> after, boolean requireSyncStart) {
            return new Submit(lanes.taskName(), CoreType.AIC, args, blockNum, label, after, requireSyncStart, lanes);
        }

        /** This submit (same kernel, blocks, label and dependencies) with {@code newArgs}. */
        public Submit withArgs(List<SubmitArg> newArgs) {
            return new Submit(kernel, coreType, newArgs, blockNum, label, after, requireSyncStart, mixed);
        }

        /** This submit with {@code newLabel} and {@code newAfter}. */
        public Submit withLabels(String newLabel, List<String> newAfter) {
            return new Submit(kernel, coreType, args, blockNum, newLabel, newAfter, requireSyncStart, mixed);
        }
    }
}
