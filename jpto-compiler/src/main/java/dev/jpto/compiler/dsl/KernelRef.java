package dev.jpto.compiler.dsl;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.CoreType;

/** A kernel registered with a program, with the core type its tasks run on. */
public record KernelRef(ProgramBuilder owner, Kernel kernel, CoreType coreType) {
    public String name() {
        return kernel.name();
    }
}
