package dev.jpto.compiler.dsl;

import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.TileOp;
import org.junit.jupiter.api.Test;

class KernelBuilderTest {
    @Test
    void buildsTheIsaKernelWithParametersFirstAndLoopVariablesAfter() {
        KernelBuilder k = KernelBuilder.kernel("mm_k");
        KTensor a = k.input("a", BF16, 2);
        KTensor b = k.input("b", BF16, 2);
        KTensor c = k.output("c", FP32, 2);
        KScalar kTiles = k.scalar("k_tiles");
        KTile ta = k.tile("ta", BF16, 64, 64);
        KTile tb = k.tile("tb", BF16, 64, 64);
        KTile tc = k.tile("tc", FP32, 64, 64);
        k.fill(tc, 0.0);
        k.forRange("kt", 0, kTiles, kt -> k.load(ta, a, 0, kt.times(64)).load(tb, b, kt.times(64), 0)
                .matmulAcc(tc, ta, tb));
        k.store(tc, c, 0, 0);
        Kernel kernel = k.build();

        assertThat(kernel.name()).isEqualTo("mm_k");
        assertThat(kernel.tensors()).extracting(TensorParam::access)
                .containsExactly(TensorParam.Access.READ, TensorParam.Access.READ, TensorParam.Access.WRITE);
        assertThat(kernel.scalarParamCount()).isEqualTo(1);
        assertThat(kernel.scalars()).hasSize(2);
        assertThat(kernel.body()).hasSize(3);
        TileOp.Loop loop = (TileOp.Loop) kernel.body().get(1);
        assertThat(loop.slot()).isEqualTo(1);
        assertThat(loop.end()).isEqualTo(Idx.slot(0, 1, 0));
        TileOp.Load loadA = (TileOp.Load) loop.body().get(0);
        assertThat(loadA.offsets()).containsExactly(Idx.of(0), Idx.slot(1, 64, 0));
        assertThat(loadA.validRows()).isEqualTo(Idx.of(64));
        assertThat(loop.body().get(2)).isEqualTo(new TileOp.MatMul(2, 0, 1, false, true));
    }

    @Test
    void indexExpressionsCombineAffinely() {
        KernelBuilder k = KernelBuilder.kernel("k");
        KScalar r = k.scalar("r");
        KScalar s = k.scalar("s");
        KIndex e = r.times(3).plus(s).plus(5).minus(r);
        assertThat(e.idx()).isEqualTo(new Idx(5, new int[] {0, 1}, new long[] {2, 1}));
        assertThat(r.idx()).isEqualTo(Idx.slot(0, 1, 0));
    }

    @Test
    void rejectsMistakesAtTheCallThatMakesThem() {
        KernelBuilder k = KernelBuilder.kernel("k");
        KTensor x = k.input("x", FP32, 2);
        KTile t = k.tile("t", FP32, 8, 8);
        assertThatThrownBy(() -> k.load(t, x, 0)).hasMessageContaining("load of x (rank 2) needs 2 offsets, got 1");
        assertThatThrownBy(() -> k.load(t, x, 0, "1")).hasMessageContaining("offset 1 must be an int");
        KernelBuilder other = KernelBuilder.kernel("other");
        KTile foreign = other.tile("f", FP32, 8, 8);
        assertThatThrownBy(() -> k.copy(t, foreign)).hasMessageContaining("tile f belongs to another kernel");
        k.forRange("i", 0, 2, i -> { });
        assertThatThrownBy(() -> k.scalar("n")).hasMessageContaining("declare scalar parameter n before the first forRange");
        assertThatThrownBy(() -> k.tile("t", FP32, 8, 8)).hasMessageContaining("tile t is declared twice");
        assertThatThrownBy(() -> k.input("v", FP32, 1)).hasMessageContaining("rank >= 2");
        k.build();
        assertThatThrownBy(() -> k.fill(t, 1)).hasMessageContaining("already built");
    }
}
