package dev.jpto.isa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class TensorTest {
    private final Arena arena = Arena.ofAuto();

    private Tensor iota(DType t, long... shape) {
        Tensor x = Tensor.allocate(arena, t, shape);
        for (long i = 0; i < x.numel(); i++) {
            x.setDouble(i, i);
        }
        return x;
    }

    @Test
    void contiguousLayout() {
        Tensor x = iota(DType.FP32, 2, 3, 4);
        assertThat(x.strides()).containsExactly(12, 4, 1);
        assertThat(x.numel()).isEqualTo(24);
        assertThat(x.byteSize()).isEqualTo(96);
        assertThat(x.isContiguous()).isTrue();
        assertThat(x.byteOffset(1, 2, 3)).isEqualTo((12 + 8 + 3) * 4);
        assertThat(x.getDouble(23)).isEqualTo(23);
        assertThat(x.toString()).isEqualTo("fp32[2, 3, 4]");
    }

    @Test
    void sliceSharesTheBufferWithoutCopying() {
        Tensor x = iota(DType.INT32, 4, 5); // x[r][c] = 5r + c
        Tensor s = x.slice(new long[] {1, 2}, new long[] {2, 3});
        assertThat(s.shape()).containsExactly(2, 3);
        assertThat(s.offset()).isEqualTo(7);
        assertThat(s.bufferAddress()).isEqualTo(x.bufferAddress());
        assertThat(s.isContiguous()).isFalse();
        assertThat(s.toDoubleArray()).containsExactly(7, 8, 9, 12, 13, 14);
        s.setDouble(4, -1); // s[1][1] = x[2][3]
        assertThat(x.getDouble(13)).isEqualTo(-1);
        Tensor ss = s.slice(new long[] {1, 1}, new long[] {1, 2});
        assertThat(ss.toDoubleArray()).containsExactly(-1, 14);
        assertThat(ss.toString()).isEqualTo("int32[1, 2] strides=[5, 1] offset=13");
    }

    @Test
    void sliceBoundsErrors() {
        Tensor x = iota(DType.FP32, 4, 5);
        assertThatThrownBy(() -> x.slice(new long[] {3, 0}, new long[] {2, 5}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("slice [3, 5) is outside dimension 0 of extent 4 (shape [4, 5])");
        assertThatThrownBy(() -> x.slice(new long[] {0}, new long[] {1}))
                .hasMessageContaining("needs 2 starts and extents, got 1 and 1");
        assertThatThrownBy(() -> x.slice(new long[] {-1, 0}, new long[] {1, 1})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void explicitStridesAreCheckedAgainstTheBuffer() {
        MemorySegment seg = arena.allocate(10 * 4);
        Tensor t = Tensor.of(seg, DType.FP32, new long[] {2, 3}, new long[] {5, 2}, 0); // last element 5 + 4 = 9
        assertThat(t.byteOffset(1, 2)).isEqualTo(9 * 4);
        assertThatThrownBy(() -> Tensor.of(seg, DType.FP32, new long[] {2, 3}, new long[] {5, 2}, 1))
                .hasMessageContaining("reaches elements [1, 10] outside its buffer of 10 fp32 elements");
        Tensor rev = Tensor.of(seg, DType.FP32, new long[] {3}, new long[] {-1}, 2); // negative stride view
        for (int i = 0; i < 10; i++) {
            seg.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, i);
        }
        assertThat(rev.toDoubleArray()).containsExactly(2, 1, 0);
        assertThatThrownBy(() -> Tensor.of(seg, DType.FP32, new long[] {3}, new long[] {-1}, 1))
                .hasMessageContaining("outside its buffer");
        assertThatThrownBy(() -> Tensor.of(seg, DType.FP32, new long[] {2}, new long[] {1, 1}, 0))
                .hasMessageContaining("must have the same rank");
        assertThatThrownBy(() -> Tensor.wrap(seg, DType.FP32, 11)).hasMessageContaining("too small");
        assertThatThrownBy(() -> Tensor.of(seg, DType.FP32, new long[] {-1}, new long[] {1}, 0))
                .hasMessageContaining("negative extent");
    }

    @Test
    void reshapeOfContiguousOnly() {
        Tensor x = iota(DType.FP16, 2, 6);
        Tensor r = x.reshape(3, 4);
        assertThat(r.strides()).containsExactly(4, 1);
        assertThat(r.toDoubleArray()).isEqualTo(x.toDoubleArray());
        Tensor rowSlice = x.slice(new long[] {1, 0}, new long[] {1, 6});
        assertThat(rowSlice.reshape(2, 3).toDoubleArray()).containsExactly(6, 7, 8, 9, 10, 11);
        assertThatThrownBy(() -> x.reshape(5, 2)).hasMessage("reshape from [2, 6] to [5, 2] changes the element count");
        Tensor colSlice = x.slice(new long[] {0, 1}, new long[] {2, 2});
        assertThatThrownBy(() -> colSlice.reshape(4)).hasMessageContaining("reshape needs a contiguous tensor");
    }

    @Test
    void indexBoundsAndCopy() {
        Tensor x = iota(DType.INT8, 2, 2);
        assertThatThrownBy(() -> x.byteOffset(2, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> x.byteOffset(0)).isInstanceOf(IllegalArgumentException.class);
        Tensor y = Tensor.allocate(arena, DType.FP32, 2, 2);
        y.copyFrom(x);
        assertThat(y.toDoubleArray()).containsExactly(0, 1, 2, 3);
        assertThatThrownBy(() -> y.copyFrom(iota(DType.FP32, 4))).hasMessageContaining("copy from shape [4] into shape [2, 2]");
        Tensor empty = Tensor.allocate(arena, DType.FP32, 0, 3);
        assertThat(empty.numel()).isZero();
        assertThat(empty.toDoubleArray()).isEmpty();
    }
}
