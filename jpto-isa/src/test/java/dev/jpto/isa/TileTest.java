package dev.jpto.isa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TileTest {
    @Test
    void allocationLayoutAndValidRegion() {
        Tile t = Tile.allocate(DType.BF16, 16, 64);
        assertThat(t.data().byteSize()).isEqualTo(16 * 64 * 2);
        assertThat(t.data().address() % 64).isZero();
        assertThat(t.validRows()).isEqualTo(16);
        assertThat(t.validCols()).isEqualTo(64);
        assertThat(t.byteOffset(1, 3)).isEqualTo((64 + 3) * 2);
        t.setValid(16, 40);
        assertThat(t.describe()).isEqualTo("bf16[16x64 valid 16x40]");
        t.setValid(0, 0);
        assertThat(t.validRows()).isZero();
        assertThatThrownBy(() -> t.setValid(17, 1)).hasMessage("valid region 17x1 does not fit tile 16x64");
        assertThatThrownBy(() -> t.setValid(1, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tile.allocate(DType.FP32, 0, 4)).hasMessage("tile shape must be positive: rows=0 cols=4");
    }

    @Test
    void elementsRoundAndSaturateToTheDtype() {
        Tile b = Tile.allocate(DType.BF16, 1, 2);
        b.setFloat(0, 0, 1.00390625f); // 1 + 2^-8: tie -> 1
        b.setFloat(0, 1, 1.01171875f); // 1 + 3*2^-8: tie -> 1 + 2^-6 (even)
        assertThat(b.getFloat(0, 0)).isEqualTo(1f);
        assertThat(b.getFloat(0, 1)).isEqualTo(1.015625f);
        Tile i = Tile.allocate(DType.INT8, 1, 1);
        i.setLong(0, 0, 1000);
        assertThat(i.getLong(0, 0)).isEqualTo(127);
        i.setFloat(0, 0, -3.5f);
        assertThat(i.getLong(0, 0)).isEqualTo(-4);
        Tile z = Tile.allocate(DType.FP32, 2, 2);
        z.setFloat(1, 1, 5);
        z.clear();
        assertThat(z.getFloat(1, 1)).isZero();
        assertThat(z.toString()).isEqualTo("fp32[2x2]");
    }
}
