package dev.jpto.compiler.workdir;

import dev.jpto.compiler.ir.TensorDecl;
import java.util.List;
import java.util.Map;

/**
 * The contents of {@code manifest.json}; layout in {@link ManifestDescriptor}. Paths are relative to the work
 * dir, with '/' separators.
 */
public record Manifest(int formatVersion, String program, List<TensorDecl> inputs, List<TensorDecl> outputs,
                       List<KernelEntry> kernels, String orchestration, Map<String, String> compileOptions) {
    /** A kernel and the file holding its text form. */
    public record KernelEntry(String name, String file) {
    }

    public Manifest {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        kernels = List.copyOf(kernels);
        compileOptions = Map.copyOf(compileOptions);
    }
}
