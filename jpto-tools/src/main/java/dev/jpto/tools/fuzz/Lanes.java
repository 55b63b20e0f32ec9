package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Stmt;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TensorParam;
import java.util.List;
import java.util.Map;

/** The kernels a submit runs: its one kernel, or the active lanes of a mixed submit (which share its arguments). */
final class Lanes {
    private Lanes() {
    }

    /** The kernel names a submit runs, in lane order. */
    static List<String> kernels(Stmt.Submit sub) {
        return sub.mixed() == null ? List.of(sub.kernel()) : sub.mixed().kernels();
    }

    /**
     * How the task as a whole accesses tensor parameter {@code i}: the union of its kernels' accesses (a mixed task
     * whose cube lane writes a tensor its vector lanes read both reads and writes it); null when a kernel is not
     * declared in {@code declared}.
     */
    static TensorParam.Access access(Stmt.Submit sub, Map<String, Kernel> declared, int i) {
        boolean reads = false;
        boolean writes = false;
        for (String name : kernels(sub)) {
            Kernel k = declared.get(name);
            if (k == null || i >= k.tensors().size()) {
                return null;
            }
            TensorParam.Access a = k.tensors().get(i).access();
            reads |= a != TensorParam.Access.WRITE;
            writes |= a != TensorParam.Access.READ;
        }
        return reads && writes ? TensorParam.Access.READ_WRITE
                : writes ? TensorParam.Access.WRITE : TensorParam.Access.READ;
    }
}
