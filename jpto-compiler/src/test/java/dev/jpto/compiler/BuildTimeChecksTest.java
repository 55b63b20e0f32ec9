package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.IrError;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.op.Fn;
import org.junit.jupiter.api.Test;

/**
 * The mistakes a device toolchain catches when a kernel or program is built, each reported then (not when it
 * runs) with the kernel, the op, the operands' shapes and dtypes, and the file:line of the builder call. The
 * program is a user's first kernel, {@code y = relu(x·w + b)} (x 128x64, w 64x128, b 1x128, 64x64 blocks), with
 * one mistake each.
 */
class BuildTimeChecksTest {
    private static final int T = 64;
    private static final int M = 128;
    private static final int K = 64;
    private static final int N = 128;
    private static final String FILE = "BuildTimeChecksTest.java:";

    /** acc = x_block · w_block; {@code xCols} is the width of the x tile (K when correct). */
    private static Kernel matmulKernel(int xCols) {
        KernelBuilder kb = KernelBuilder.kernel("dense_mm");
        KTensor x = kb.input("x", DType.FP32, 2);
        KTensor w = kb.input("w", DType.FP32, 2);
        KTensor acc = kb.output("acc", DType.FP32, 2);
        KTile tx = kb.tile("tx", DType.FP32, T, xCols);
        KTile tw = kb.tile("tw", DType.FP32, xCols, T);
        KTile tc = kb.tile("tc", DType.FP32, T, T);
        kb.load(tx, x, 0, 0).load(tw, w, 0, 0).matmul(tc, tx, tw).store(tc, acc, 0, 0);
        return kb.build();
    }

    /** The bias-and-ReLU ops, before the store (op #4): load ta, load tb, add_cb, relu. */
    private static KernelBuilder biasRelu(KernelBuilder kb, KTile ta, KTile tb) {
        KTensor acc = kb.input("acc", DType.FP32, 2);
        KTensor b = kb.input("b", DType.FP32, 2);
        return kb.load(ta, acc, 0, 0).load(tb, b, 0, 0).colBroadcast(Fn.Binary.ADD, ta, ta, tb).relu(ta, ta);
    }

    private static Kernel biasReluKernel() {
        KernelBuilder kb = KernelBuilder.kernel("bias_relu");
        KTile ta = kb.tile("ta", DType.FP32, T, T);
        KTile tb = kb.tile("tb", DType.FP32, 1, T);
        biasRelu(kb, ta, tb);
        KTensor y = kb.output("y", DType.FP32, 2);
        kb.store(ta, y, 0, 0);
        return kb.build();
    }

    @Test
    void aTileShapeMismatchIsFoundWhenTheKernelIsBuilt() {
        KernelBuilder kb = KernelBuilder.kernel("bias_relu");
        KTile ta = kb.tile("ta", DType.FP32, T, T);
        KTile tb = kb.tile("tb", DType.FP32, 1, T);
        biasRelu(kb, ta, tb);
        KTile bad = kb.tile("bad", DType.FP32, T, T / 2);
        kb.add(ta, ta, bad); int line = Here.line();
        assertThatThrownBy(kb::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernel bias_relu: op #4 (add) at " + FILE + line + ": operand b (tile bad fp32[64x32]) "
                        + "must be 64x64 to match a (tile ta fp32[64x64])");
    }

    @Test
    void aDtypeTheOpDoesNotTakeIsFoundWhenTheKernelIsBuilt() {
        KernelBuilder kb = KernelBuilder.kernel("bias_relu");
        KTile ta = kb.tile("ta", DType.FP32, T, T);
        KTile tb = kb.tile("tb", DType.FP32, 1, T);
        biasRelu(kb, ta, tb);
        KTile ti = kb.tile("ti", DType.INT32, T, T);
        kb.exp(ti, ti); int line = Here.line();
        assertThatThrownBy(kb::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernel bias_relu: op #4 (exp) at " + FILE + line + ": operand src must be a float tile "
                        + "(fp32, fp16, bf16), got tile ti int32[64x64]");
    }

    @Test
    void aViolationInsideAKernelLoopNamesTheLineOfTheOpInTheLoopBody() {
        KernelBuilder kb = KernelBuilder.kernel("rows");
        KTensor x = kb.input("x", DType.FP32, 2);
        KTile a = kb.tile("a", DType.FP32, 8, 16);
        KTile r = kb.tile("r", DType.FP32, 1, 16);
        int[] line = new int[1];
        kb.forRange("i", 0, 4, i -> {
            kb.load(a, x, i.times(8), 0);
            line[0] = Here.line(); kb.rowBroadcast(Fn.Binary.MUL, a, a, r);
        });
        assertThatThrownBy(kb::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernel rows: op #0.1 (mul_rb) at " + FILE + line[0] + ": operand b (tile r fp32[1x16]) "
                        + "must be 8x1 (one value per row of a (tile a fp32[8x16]))");
    }

    @Test
    void aMatmulKernelOnAVectorCoreIsRejectedWhenRegistered() {
        ProgramBuilder pb = ProgramBuilder.program("relu_dense");
        Kernel mm = matmulKernel(K);
        int line = Here.line(); assertThatThrownBy(() -> pb.aiv(mm))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("program relu_dense: kernel dense_mm has a matmul (op #2 matmul) but is registered for a "
                        + "vector core (AIV), which has no cube unit; register it for a cube core (aic) (at " + FILE
                        + line + ")");
    }

    @Test
    void aVectorOnlyKernelOnACubeCoreIsRejectedWhenRegistered() {
        ProgramBuilder pb = ProgramBuilder.program("relu_dense");
        Kernel epilogue = biasReluKernel();
        int line = Here.line(); assertThatThrownBy(() -> pb.aic(epilogue))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("program relu_dense: kernel bias_relu has no matmul: a vector-only kernel submitted to a "
                        + "cube core (AIC); register it for a vector core (aiv) (at " + FILE + line + ")");
    }

    /**
     * The relu_dense program with a dense_mm x tile {@code xCols} wide; the epilogue reads b's block j, or j + 1
     * when {@code bPastTheEnd}. {@code submitLine} receives the lines of the two submits.
     */
    private static ProgramBuilder reluDense(int xCols, int[] submitLine, boolean bPastTheEnd) {
        ProgramBuilder pb = ProgramBuilder.program("relu_dense");
        TensorVar x = pb.input("x", DType.FP32, M, K);
        TensorVar w = pb.input("w", DType.FP32, K, N);
        TensorVar b = pb.input("b", DType.FP32, 1, N);
        TensorVar y = pb.output("y", DType.FP32, M, N);
        KernelRef mm = pb.aic(matmulKernel(xCols));
        KernelRef epilogue = pb.aiv(biasReluKernel());
        pb.orchestrate(o -> o.forRange("i", M / T, i -> o.forRange("j", N / T, j -> {
            TensorVar acc = o.alloc("acc", DType.FP32, T, T);
            submitLine[0] = Here.line(); o.submit(mm, in(x.block(T, K).at(i, 0)), in(w.block(K, T).at(0, j)), out(acc));
            TensorVar bBlock = b.block(1, T).at(0, bPastTheEnd ? j.plus(1) : j);
            submitLine[1] = Here.line(); o.submit(epilogue, in(acc), in(bBlock), outExisting(y.block(T, T).at(i, j)));
        })));
        return pb;
    }

    @Test
    void theCorrectProgramBuilds() {
        assertThat(reluDense(K, new int[2], false).build().kernels()).hasSize(2);
    }

    @Test
    void aSlicePastItsTensorIsReportedWhenTheProgramIsBuiltWithTheSubmitsLine() {
        int[] lines = new int[2];
        ProgramBuilder pb = reluDense(K, lines, true);
        assertThatThrownBy(pb::build).isInstanceOfSatisfying(VerificationException.class, e -> {
            assertThat(e.getMessage()).startsWith("program 'relu_dense' is invalid (1 error)\n  ");
            assertThat(e.errors()).singleElement().extracting(IrError::toString).asString()
                    .startsWith("program relu_dense/for i at " + FILE)
                    .contains("/submit #2 bias_relu at " + FILE + lines[1] + ": argument 1 'b' = ")
                    .contains("slice start '64*j + 64' in dimension 1 ranges over [64, 128], so [start, start+64) "
                            + "leaves [0, 128) of shape [1, 128]");
        });
    }

    @Test
    void aLoadPastTheViewATaskIsGivenIsReportedWhenTheProgramIsBuiltWithTheSubmitsLine() {
        // the kernel is consistent (a 64x128 by 128x64 product) but the submit gives it 64x64 blocks of x and w
        int[] lines = new int[2];
        ProgramBuilder pb = reluDense(2 * K, lines, false);
        assertThatThrownBy(pb::build).isInstanceOfSatisfying(VerificationException.class, e -> {
            assertThat(e.errors()).hasSize(2);
            assertThat(e.errors().getFirst().toString())
                    .contains("/submit #1 dense_mm at " + FILE + lines[0] + ": kernel dense_mm op #0 (load) reads x")
                    .contains("with extent 128: leaves [0, 64) of the argument's shape [64, 64]");
        });
    }
}
