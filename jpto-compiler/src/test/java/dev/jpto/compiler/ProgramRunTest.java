package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.compiler.launch.Runner;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The example programs run on the simulated chip and match plain-loop references. */
@Timeout(60)
class ProgramRunTest {
    @Test
    void vectorAdd() {
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensors.random(arena, 1, 256, 128);
            Tensor y = Tensors.random(arena, 2, 256, 128);
            Tensor z = Tensor.allocate(arena, DType.FP32, 256, 128);
            RunReport rep = Runner.run(Compiler.compileInMemory(TestPrograms.vectorAdd(256)),
                    Map.of("x", x, "y", y, "z", z));
            assertThat(rep.tasksExecuted()).isEqualTo(4);
            for (long i = 0; i < z.numel(); i++) {
                assertThat(z.getDouble(i)).isEqualTo((double) ((float) x.getDouble(i) + (float) y.getDouble(i)));
            }
        }
    }

    @Test
    void matmulAccumulatesOverKThroughInoutTasks() {
        try (Arena arena = Arena.ofShared()) {
            Tensor a = Tensors.random(arena, 3, 128, 256);
            Tensor b = Tensors.random(arena, 4, 256, 192);
            Tensor c = Tensor.allocate(arena, DType.FP32, 128, 192);
            RunReport rep = Runner.run(Compiler.compileInMemory(TestPrograms.matmul(128, 256, 192)),
                    Map.of("a", a, "b", b, "c", c));
            assertThat(rep.tasksExecuted()).isEqualTo(2 * 3 * 4);
            double[] ref = Tensors.matmul(a, b);
            for (int i = 0; i < ref.length; i++) {
                assertThat(c.getDouble(i)).as("c[%d]", i).isCloseTo(ref[i], within(1e-4));
            }
        }
    }

    @Test
    void rowSoftmaxThroughAHeapRingIntermediate() {
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensors.random(arena, 5, 256, 64);
            Tensor y = Tensor.allocate(arena, DType.FP32, 256, 64);
            RunReport rep = Runner.run(Compiler.compileInMemory(TestPrograms.rowSoftmax(256, 64)),
                    Map.of("x", x, "y", y));
            assertThat(rep.tasksExecuted()).isEqualTo(8);
            assertThat(rep.ring(0).heapMax()).as("four 64x1 fp32 intermediates, 1 KiB each after alignment")
                    .isGreaterThanOrEqualTo(1024);
            double[] ref = Tensors.softmaxRows(x);
            for (int i = 0; i < ref.length; i++) {
                assertThat(y.getDouble(i)).as("y[%d]", i).isCloseTo(ref[i], within(1e-6));
            }
        }
    }

    @Test
    void triangularLoopsScalarsReshapeScopesAndKernelLoops() {
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensors.random(arena, 6, 128, 128);
            Tensor y = Tensor.allocate(arena, DType.FP32, 256, 64);
            RunReport rep = Runner.run(Compiler.compileInMemory(TestPrograms.prefixBlocks(0.5)),
                    Map.of("x", x, "y", y));
            assertThat(rep.tasksExecuted()).isEqualTo(4 + (1 + 2 + 3 + 4));
            for (int i = 0; i < 4; i++) {
                for (int r = 0; r < 64; r++) {
                    for (int c = 0; c < 64; c++) {
                        float acc = 0;
                        for (int j = 0; j <= i; j++) {
                            acc += (float) x.getDouble((j * 64L + r) * 64 + c) * 0.5f;
                        }
                        assertThat(y.getDouble((i * 64L + r) * 64 + c)).as("y[%d][%d]", i * 64 + r, c)
                                .isEqualTo((double) acc);
                    }
                }
            }
        }
    }

    @Test
    void argumentsAreCheckedAgainstTheSignature() {
        try (Arena arena = Arena.ofShared()) {
            CompiledProgram p = Compiler.compileInMemory(TestPrograms.vectorAdd(128));
            Tensor x = Tensors.random(arena, 1, 128, 128);
            Tensor small = Tensors.random(arena, 1, 64, 128);
            assertThatThrownBy(() -> Runner.run(p, Map.of("x", x, "y", x)))
                    .hasMessageContaining("missing tensor 'z' (z: fp32[128, 128])");
            assertThatThrownBy(() -> Runner.run(p, Map.of("x", x, "y", small, "z", x)))
                    .hasMessageContaining("tensor 'y' must be fp32[128, 128], got fp32[64, 128]");
            assertThatThrownBy(() -> Runner.run(p, Map.of("x", x, "y", x, "z", x, "w", x)))
                    .hasMessageContaining("unexpected tensor 'w'");
        }
    }
}
