package dev.jpto.compiler.ir;

import dev.jpto.isa.kernel.Kernel;
import java.util.List;
import java.util.Optional;

/**
 * A whole program: its signature (inputs read, outputs written, both supplied by the caller), its InCore
 * kernels, and its orchestration body.
 */
public record Program(String name, List<TensorDecl> inputs, List<TensorDecl> outputs, List<Kernel> kernels,
                      List<Stmt> body) {
    public Program {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        kernels = List.copyOf(kernels);
        body = List.copyOf(body);
    }

    public Optional<Kernel> kernel(String kernelName) {
        return kernels.stream().filter(k -> k.name().equals(kernelName)).findFirst();
    }

    /** Inputs then outputs: every tensor the caller supplies. */
    public List<TensorDecl> signature() {
        var all = new java.util.ArrayList<>(inputs);
        all.addAll(outputs);
        return List.copyOf(all);
    }

    /**
     * Whether the orchestration reads data ({@link Stmt.Read}): then trip counts depend on the inputs, and the
     * ring plan (which takes every read at its bound) is an upper bound rather than the exact task sequence.
     */
    public boolean hasReads() {
        return hasReads(body);
    }

    private static boolean hasReads(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            boolean found = switch (s) {
                case Stmt.Read r -> true;
                case Stmt.For f -> hasReads(f.body());
                case Stmt.Scope sc -> hasReads(sc.body());
                case Stmt.Alloc a -> false;
                case Stmt.Submit sub -> false;
            };
            if (found) {
                return true;
            }
        }
        return false;
    }

    public Program withBody(List<Stmt> newBody) {
        return new Program(name, inputs, outputs, kernels, newBody);
    }
}
