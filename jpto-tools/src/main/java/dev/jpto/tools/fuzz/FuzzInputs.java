package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.gen.Generators;
import dev.jpto.lib.gen.Init;
import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.Map;

/**
 * The tensors a fuzz program runs on: small integers in every input and output (outputs start non-zero, so a
 * task that reads an output before anything wrote it sees the caller's data), from the case's seed and each
 * tensor's name, so shrinking a program keeps the data of the tensors it keeps.
 */
public final class FuzzInputs {
    private FuzzInputs() {
    }

    /** One new tensor per input and output of {@code program}, in {@code arena}. */
    public static Map<String, Tensor> create(Arena arena, Program program, long seed) {
        Map<String, Tensor> args = new HashMap<>();
        for (TensorDecl d : program.inputs()) {
            args.put(d.name(), Generators.generate(arena, d.name(), d.dtype(), d.shape(), new Init.IntRange(-8, 9),
                    seed));
        }
        for (TensorDecl d : program.outputs()) {
            args.put(d.name(), Generators.generate(arena, d.name(), d.dtype(), d.shape(), new Init.IntRange(-3, 4),
                    seed));
        }
        return args;
    }
}
