package dev.jpto.compiler.ir;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.Mnemonics;
import dev.jpto.isa.op.TileOp;
import dev.jpto.runtime.CoreType;
import java.util.List;

/**
 * Which core type can run a kernel, as on the device: only a cube core (AIC) has the matrix unit, so a kernel
 * with a matmul must run there, and a cube core runs matmul kernels (a kernel without one belongs on a vector
 * core, AIV). A kernel with no ops at all (an allocation placeholder) fits either.
 */
public final class CoreTypeRule {
    private CoreTypeRule() {
    }

    /** Why {@code kernel} cannot run on {@code core}, or null when it can. */
    public static String violation(Kernel kernel, CoreType core) {
        String matmul = firstMatmul(kernel.body(), "");
        if (core == CoreType.AIV && matmul != null) {
            return "kernel " + kernel.name() + " has a matmul (" + matmul + ") but is registered for a vector core "
                    + "(AIV), which has no cube unit; register it for a cube core (aic)";
        }
        if (core == CoreType.AIC && matmul == null && !kernel.body().isEmpty()) {
            return "kernel " + kernel.name() + " has no matmul: a vector-only kernel submitted to a cube core (AIC); "
                    + "register it for a vector core (aiv)";
        }
        return null;
    }

    /** "op #2 matmul": the position of the first matmul, or null when there is none. */
    private static String firstMatmul(List<TileOp> ops, String prefix) {
        for (int i = 0; i < ops.size(); i++) {
            switch (ops.get(i)) {
                case TileOp.MatMul _ -> {
                    return "op #" + prefix + i + " " + Mnemonics.of(ops.get(i));
                }
                case TileOp.Loop loop -> {
                    String inner = firstMatmul(loop.body(), prefix + i + ".");
                    if (inner != null) {
                        return inner;
                    }
                }
                default -> { }
            }
        }
        return null;
    }
}
