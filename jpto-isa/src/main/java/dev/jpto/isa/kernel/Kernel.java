package dev.jpto.isa.kernel;

import dev.jpto.isa.op.TileOp;
import java.util.List;

/**
 * One InCore kernel: its tensor parameters, its scalar registers (scalar parameters first, then loop
 * variables), its tile declarations and its op sequence. Ops refer to all three by index.
 */
public record Kernel(String name, List<TensorParam> tensors, List<ScalarDecl> scalars, List<TileDecl> tiles,
                     List<TileOp> body) {
    public Kernel {
        tensors = List.copyOf(tensors);
        scalars = List.copyOf(scalars);
        tiles = List.copyOf(tiles);
        body = List.copyOf(body);
        boolean locals = false;
        for (ScalarDecl s : scalars) {
            if (!s.param()) {
                locals = true;
            } else if (locals) {
                throw new IllegalArgumentException("kernel " + name + ": scalar parameter " + s.name()
                        + " must come before the loop variables");
            }
        }
    }

    /** Number of scalar parameters (the leading scalar registers). */
    public int scalarParamCount() {
        int n = 0;
        for (ScalarDecl s : scalars) {
            if (s.param()) {
                n++;
            }
        }
        return n;
    }
}
