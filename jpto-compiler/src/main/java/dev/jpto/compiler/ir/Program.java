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

    public Program withBody(List<Stmt> newBody) {
        return new Program(name, inputs, outputs, kernels, newBody);
    }
}
