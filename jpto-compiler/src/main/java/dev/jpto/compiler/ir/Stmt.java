package dev.jpto.compiler.ir;

import dev.jpto.runtime.CoreType;
import java.util.List;

/** An orchestration statement. The orchestration body is a list of these, run by one orchestrator thread. */
public sealed interface Stmt {
    /** {@code for var in range(start, end, step)}; bounds may use enclosing loop variables. */
    record For(String var, Affine start, Affine end, long step, List<Stmt> body) implements Stmt {
        public For {
            body = List.copyOf(body);
        }
    }

    /** A runtime scope: tasks submitted inside are retired from their ring when it closes. */
    record Scope(List<Stmt> body) implements Stmt {
        public Scope {
            body = List.copyOf(body);
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

    /** Submits one task running {@code kernel} on a core of type {@code coreType}. */
    record Submit(String kernel, CoreType coreType, List<SubmitArg> args) implements Stmt {
        public Submit {
            args = List.copyOf(args);
        }
    }
}
