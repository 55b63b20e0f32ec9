package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TensorParam;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which tensors a program's tasks read and write, and which kernels they run (as the verifier counts use). */
final class Usage {
    private Usage() {
    }

    /** Adds to {@code read} every tensor some task reads, to {@code written} every tensor some task writes. */
    static void collect(Program p, Set<String> read, Set<String> written) {
        Map<String, Kernel> kernels = new HashMap<>();
        for (Kernel k : p.kernels()) {
            kernels.put(k.name(), k);
        }
        walk(p.body(), kernels, read, written, null);
    }

    /** Names of the kernels some task runs. */
    static Set<String> submittedKernels(Program p) {
        Set<String> names = new java.util.HashSet<>();
        walk(p.body(), Map.of(), null, null, names);
        return names;
    }

    private static void walk(List<Stmt> body, Map<String, Kernel> kernels, Set<String> read, Set<String> written,
                             Set<String> submitted) {
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> walk(f.body(), kernels, read, written, submitted);
                case Stmt.Scope sc -> walk(sc.body(), kernels, read, written, submitted);
                case Stmt.Alloc a -> { }
                case Stmt.Read r -> {
                    if (read != null) {
                        read.add(r.element().root());
                    }
                }
                case Stmt.Submit sub -> {
                    if (submitted != null) {
                        submitted.addAll(Lanes.kernels(sub));
                    }
                    for (int i = 0; i < sub.args().size(); i++) {
                        if (sub.args().get(i) instanceof SubmitArg.TensorArg ta) {
                            TensorParam.Access access = Lanes.access(sub, kernels, i);
                            if (access == null) {
                                continue;
                            }
                            if (access != TensorParam.Access.WRITE) {
                                read.add(ta.tensor().root());
                            }
                            if (access != TensorParam.Access.READ) {
                                written.add(ta.tensor().root());
                            }
                        }
                    }
                }
            }
        }
    }
}
