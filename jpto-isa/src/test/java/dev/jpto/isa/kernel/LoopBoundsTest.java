package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.kernel.TensorParam.Access;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopBoundsTest {
    /** Counts iterations: t += 1 per iteration, then stores t. */
    private static Kernel counter(Idx start, Idx end, long step) {
        return new Kernel("count", List.of(new TensorParam("y", DType.INT64, 2, Access.WRITE)),
                List.of(new ScalarDecl("n", true), new ScalarDecl("i", false)),
                List.of(new TileDecl("t", DType.INT64, 1, 1)),
                List.of(new TileOp.Fill(0, Scalar.imm(0)),
                        new TileOp.Loop(1, start, end, step, List.of(new TileOp.BinaryScalar(Fn.Binary.ADD, 0, 0, Scalar.imm(1)))),
                        new TileOp.Store(0, 0, List.of(Idx.of(0), Idx.of(0)))));
    }

    private static long run(Kernel k, double n) {
        Tensor y = Tensor.allocate(Arena.ofAuto(), DType.INT64, 1, 1);
        new KernelExecutor(new ScalarEngine()).execute(k, new Tensor[] {y}, new double[] {n});
        return (long) y.getDouble(0);
    }

    @Test
    void iterationCounts() {
        assertThat(run(counter(Idx.of(0), Idx.slot(0, 1, 0), 1), 10)).isEqualTo(10);
        assertThat(run(counter(Idx.of(0), Idx.slot(0, 1, 0), 3), 10)).isEqualTo(4); // 0 3 6 9
        assertThat(run(counter(Idx.of(5), Idx.slot(0, 1, 0), 1), 5)).isZero();
        assertThat(run(counter(Idx.of(5), Idx.slot(0, 1, 0), 1), -3)).isZero();
        // near Long.MAX_VALUE the step would overflow: the loop must stop, not wrap around
        assertThat(run(counter(Idx.of(Long.MAX_VALUE - 5), Idx.of(Long.MAX_VALUE), 4), 0)).isEqualTo(2);
    }
}
