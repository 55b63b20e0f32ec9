package dev.jpto.compiler.launch;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.Tensor;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Checks the caller's tensors against a program's signature: every input and output, right dtype and shape. */
final class ProgramArgs {
    private ProgramArgs() {
    }

    static Map<String, Tensor> bind(Program program, Map<String, Tensor> args) {
        Map<String, Tensor> bound = new HashMap<>();
        Set<String> expected = new TreeSet<>();
        for (TensorDecl d : program.signature()) {
            expected.add(d.name());
            Tensor t = args.get(d.name());
            if (t == null) {
                throw new IllegalArgumentException("program " + program.name() + ": missing tensor '" + d.name()
                        + "' (" + d + "); the program takes " + signature(program));
            }
            if (t.dtype() != d.dtype() || !Arrays.equals(t.shape(), d.shape())) {
                throw new IllegalArgumentException("program " + program.name() + ": tensor '" + d.name() + "' must be "
                        + d.dtype().text() + Arrays.toString(d.shape()) + ", got " + t);
            }
            bound.put(d.name(), t);
        }
        for (String name : args.keySet()) {
            if (!expected.contains(name)) {
                throw new IllegalArgumentException("program " + program.name() + ": unexpected tensor '" + name
                        + "'; the program takes " + signature(program));
            }
        }
        return bound;
    }

    private static String signature(Program p) {
        StringBuilder sb = new StringBuilder();
        for (TensorDecl d : p.inputs()) {
            sb.append(sb.isEmpty() ? "" : ", ").append("input ").append(d);
        }
        for (TensorDecl d : p.outputs()) {
            sb.append(sb.isEmpty() ? "" : ", ").append("output ").append(d);
        }
        return sb.toString();
    }
}
