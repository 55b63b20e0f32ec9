package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Structural properties of the goldens on the tiny preset: causality, window masks, compression shapes. */
class Dsv4InvariantsTest {

    private static Map<String, Tensor> inputs(Dsv4Program prog, Dsv4Preset p, Arena arena) {
        return Dsv4Inputs.generate(Dsv4Signature.of(prog, p), 21, arena);
    }

    private static float[] obRow(Dsv4GoldenResult r, Dsv4Preset p, int t) {
        int w = p.dims().h() * p.dims().headDim();
        return Arrays.copyOfRange(r.trace().ob(), t * w, (t + 1) * w);
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void aLaterTokenNeverChangesAnEarlierOne(Dsv4Program prog) {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny();
            Map<String, Tensor> in = inputs(prog, p, arena);
            Dsv4GoldenResult base = Dsv4Golden.run(prog, p, in, arena);
            int changed = 70;
            Tensor x = in.get("x_hc");
            long rowLen = x.numel() / x.shape(0);
            for (long i = changed * rowLen; i < (changed + 1) * rowLen; i++) {
                x.setDouble(i, -x.getDouble(i));
            }
            Dsv4GoldenResult after = Dsv4Golden.run(prog, p, in, arena);
            for (int t = 0; t < changed; t++) {
                assertThat(obRow(after, p, t)).as("%s token %d", prog, t).containsExactly(obRow(base, p, t));
            }
            assertThat(obRow(after, p, changed)).isNotEqualTo(obRow(base, p, changed));
            assertThat(obRow(after, p, changed + 1)).isNotEqualTo(obRow(base, p, changed + 1));
        }
    }

    @Test
    void theSlidingWindowSeesExactlyTheLast128Positions() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(128, 128);
            Map<String, Tensor> in = inputs(Dsv4Program.SWA, p, arena);
            Dsv4GoldenResult base = Dsv4Golden.run(Dsv4Program.SWA, p, in, arena);
            Tensor cache = in.get("kv_cache");
            int hd = p.dims().headDim();
            // position 0 is outside every window of the chunk 128..255 (token 0 at position 128 sees 1..128)
            for (int j = 0; j < hd; j++) {
                cache.setDouble(j, 0.5);
            }
            Dsv4GoldenResult noEffect = Dsv4Golden.run(Dsv4Program.SWA, p, in, arena);
            assertThat(noEffect.trace().ob()).containsExactly(base.trace().ob());
            // position 1 is inside the window of token 0 only
            for (int j = 0; j < hd; j++) {
                cache.setDouble(hd + j, 0.5);
            }
            Dsv4GoldenResult one = Dsv4Golden.run(Dsv4Program.SWA, p, in, arena);
            assertThat(obRow(one, p, 0)).isNotEqualTo(obRow(base, p, 0));
            for (int t = 1; t < 128; t++) {
                assertThat(obRow(one, p, t)).as("token %d", t).containsExactly(obRow(base, p, t));
            }
            // window indices: oldest first, the token itself last
            int[] swa = base.trace().swaIndices();
            assertThat(swa[0]).isEqualTo(1);
            assertThat(swa[127]).isEqualTo(128);
            assertThat(swa[5 * 128 + 127]).isEqualTo(133);
        }
    }

    @Test
    void hcaClosesOneCompressedRowPerChunkVisibleOnlyToItsLastToken() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny();
            Map<String, Tensor> in = inputs(Dsv4Program.HCA, p, arena);
            Dsv4GoldenResult r = Dsv4Golden.run(Dsv4Program.HCA, p, in, arena);
            int hd = p.dims().headDim();
            Tensor before = in.get("cmp_kv");
            Tensor after = r.expected("cmp_kv");
            long changedRows = 0;
            for (long row = 0; row < before.numel() / hd; row++) {
                boolean same = true;
                for (int j = 0; j < hd; j++) {
                    same &= before.getDouble(row * hd + j) == after.getDouble(row * hd + j);
                }
                if (!same) {
                    changedRows++;
                    assertThat(row).isEqualTo(0);
                }
            }
            assertThat(changedRows).isEqualTo(1);
            int cols = r.trace().cmpIdxCols();
            for (int t = 0; t < 128; t++) {
                assertThat(r.trace().cmpIndices()[t * cols]).as("token %d", t).isEqualTo(t == 127 ? 0 : -1);
                assertThat(r.trace().cmpIndices()[t * cols + 1]).isEqualTo(-1);
            }
            // every active token wrote its state row: [kv | score + ape] of width 2·HEAD_DIM
            Tensor state = r.expected("compress_state");
            Tensor slots = in.get("state_slot_mapping");
            for (int t = 0; t < 128; t += 37) {
                long row = (long) slots.getDouble(t);
                assertThat(state.getDouble(row * 2 * hd)).isNotZero();
                assertThat(in.get("compress_state").getDouble(row * 2 * hd)).isZero();
            }
        }
    }

    @Test
    void csaSelectsEveryVisibleCompressedRowInScoreOrder() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(128, 128);
            Map<String, Tensor> in = inputs(Dsv4Program.CSA, p, arena);
            Dsv4GoldenResult r = Dsv4Golden.run(Dsv4Program.CSA, p, in, arena);
            int cols = r.trace().cmpIdxCols();
            for (int t = 0; t < 128; t += 9) {
                int visible = (128 + t + 1) / 4;
                int[] row = Arrays.copyOfRange(r.trace().cmpIndices(), t * cols, (t + 1) * cols);
                int[] selected = Arrays.copyOf(row, visible);
                Arrays.sort(selected);
                for (int c = 0; c < visible; c++) {
                    assertThat(selected[c]).isEqualTo(c);
                }
                for (int c = visible; c < cols; c++) {
                    assertThat(row[c]).isEqualTo(-1);
                }
            }
            // 32 compressed rows written (slots 32..63) and 32 index-key rows with positive scales
            Tensor scales = r.expected("idx_kv_scale");
            for (int s = 0; s < 64; s++) {
                assertThat(scales.getDouble(s)).as("slot %d", s).isPositive();
            }
            assertThat(scales.getDouble(64)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void paddingRowsStayZeroAndPoolsUntouched(Dsv4Program prog) {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(0, 100);
            Map<String, Tensor> in = inputs(prog, p, arena);
            Dsv4GoldenResult r = Dsv4Golden.run(prog, p, in, arena);
            Tensor xOut = r.expected("x_out");
            long rowLen = xOut.numel() / 128;
            for (long i = 100 * rowLen; i < xOut.numel(); i++) {
                assertThat(xOut.getDouble(i)).isZero();
            }
            assertThat(Dsv4Validation.ratioReldiff(xOut, xOut, 3e-3, 0.005, 1, 100).pass()).isTrue();
            int hd = p.dims().headDim();
            Tensor cache = r.expected("kv_cache");
            for (long i = 100L * hd; i < 128L * hd; i++) {
                assertThat(cache.getDouble(i)).isEqualTo(in.get("kv_cache").getDouble(i));
            }
            assertThat(cache.getDouble(99L * hd)).isNotZero();
        }
    }
}
