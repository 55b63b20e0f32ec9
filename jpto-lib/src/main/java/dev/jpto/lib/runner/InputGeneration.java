package dev.jpto.lib.runner;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.ProgramSpec;
import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The runner's "generate inputs" stage: every input of a program, and the initial value of every output it
 * updates in place ({@link ProgramSpec#outputFills()}), each filled by its own rule from the run seed.
 */
public final class InputGeneration {
    private InputGeneration() {
    }

    /** Every program input, in the program's order, allocated in {@code arena} and filled. */
    public static Map<String, Tensor> inputs(ProgramSpec program, long seed, Arena arena) {
        return inputs(program, seed, arena, bytes -> { });
    }

    /** As {@link #inputs(ProgramSpec, long, Arena)}, telling {@code filled} the bytes of each input once filled. */
    public static Map<String, Tensor> inputs(ProgramSpec program, long seed, Arena arena, LongConsumer filled) {
        Map<String, Tensor> inputs = new LinkedHashMap<>();
        for (InputSpec in : program.inputs()) {
            Tensor t = Tensor.allocate(arena, in.dtype(), in.shape());
            in.fill().fill(t, in.name(), seed);
            inputs.put(in.name(), t);
            filled.accept(bytes(in));
        }
        return inputs;
    }

    /** The bytes of all inputs of {@code program}: what {@link #inputs} fills. */
    public static long totalBytes(ProgramSpec program) {
        long sum = 0;
        for (InputSpec in : program.inputs()) {
            long b = bytes(in);
            sum = b > Long.MAX_VALUE - sum ? Long.MAX_VALUE : sum + b;
        }
        return sum;
    }

    private static long bytes(InputSpec in) {
        return new TensorUse("input", new TensorDecl(in.name(), in.dtype(), in.shape()), 1).bytes();
    }

    /** The initial value of every in-place output that has a fill, in output order; others start zeroed. */
    public static Map<String, Tensor> initialOutputs(ProgramSpec program, long seed, Arena arena) {
        Map<String, Tensor> initial = new LinkedHashMap<>();
        for (TensorDecl d : program.outputs()) {
            InputFill fill = program.outputFills().get(d.name());
            if (fill != null) {
                Tensor t = Tensor.allocate(arena, d.dtype(), d.shape());
                fill.fill(t, d.name(), seed);
                initial.put(d.name(), t);
            }
        }
        return initial;
    }
}
