package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Dsv4SignatureTest {
    private static final List<String> COMMON = List.of("x_hc", "hc_attn_fn", "hc_attn_scale", "hc_attn_base",
            "attn_norm_w", "wq_a", "wq_b", "wq_b_scale", "wkv", "gamma_cq", "gamma_ckv", "freqs_cos", "freqs_sin");
    private static final List<String> TAIL = List.of("attn_sink", "wo_a", "wo_b", "wo_b_scale", "x_out");

    private static List<String> names(Dsv4Program p) {
        return Dsv4Signature.of(p, Dsv4Preset.tiny()).tensors().stream().map(TensorSpec::name).toList();
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        return java.util.stream.Stream.of(a, b, c).flatMap(List::stream).toList();
    }

    @Test
    void parameterOrderIsTheOriginals() {
        assertThat(names(Dsv4Program.SWA)).containsExactlyElementsOf(concat(COMMON,
                List.of("kv_cache", "block_table", "ori_slot_mapping", "position_ids"), TAIL));
        assertThat(names(Dsv4Program.CSA)).containsExactlyElementsOf(concat(COMMON, List.of("cmp_wkv", "cmp_wgate",
                "cmp_ape", "cmp_norm_w", "compress_state", "compress_state_block_table", "hadamard_idx", "idx_wq_b",
                "idx_wq_b_scale", "idx_weights_proj", "inner_wkv", "inner_wgate", "inner_ape", "inner_norm_w",
                "inner_compress_state", "inner_compress_state_block_table", "kv_cache", "ori_block_table",
                "ori_slot_mapping", "cmp_kv", "cmp_block_table", "idx_kv_cache", "idx_kv_scale", "idx_block_table",
                "position_ids", "cmp_slot_mapping", "idx_slot_mapping", "state_slot_mapping",
                "inner_state_slot_mapping"), TAIL));
        assertThat(names(Dsv4Program.HCA)).containsExactlyElementsOf(concat(COMMON, List.of("cmp_wkv", "cmp_wgate",
                "cmp_ape", "cmp_norm_w", "compress_state", "compress_state_block_table", "kv_cache",
                "ori_slot_mapping", "ori_block_table", "cmp_kv", "cmp_block_table", "position_ids",
                "cmp_slot_mapping", "state_slot_mapping"), TAIL));
    }

    @Test
    void validatedOutputsAreTheOriginals() {
        assertThat(validated(Dsv4Program.SWA)).containsExactly("kv_cache", "x_out");
        assertThat(validated(Dsv4Program.CSA)).containsExactly("compress_state", "inner_compress_state", "kv_cache",
                "cmp_kv", "idx_kv_cache", "idx_kv_scale", "x_out");
        assertThat(validated(Dsv4Program.HCA)).containsExactly("compress_state", "kv_cache", "cmp_kv", "x_out");
    }

    private static List<String> validated(Dsv4Program p) {
        return Dsv4Signature.of(p, Dsv4Preset.pro()).validated().stream().map(TensorSpec::name).toList();
    }

    @Test
    void proShapesAndDtypes() {
        Dsv4Signature swa = Dsv4Signature.of(Dsv4Program.SWA, Dsv4Preset.pro());
        assertSpec(swa, "x_hc", DType.FP32, 128, 4, 7168);
        assertSpec(swa, "hc_attn_fn", DType.FP32, 24, 28672);
        assertSpec(swa, "wq_b", DType.INT8, 1536, 65536);
        assertSpec(swa, "wq_b_scale", DType.FP32, 65536);
        assertSpec(swa, "freqs_cos", DType.BF16, 16384, 64);
        assertSpec(swa, "kv_cache", DType.BF16, 128, 128, 1, 512);
        assertSpec(swa, "block_table", DType.INT32, 128);
        assertSpec(swa, "ori_slot_mapping", DType.INT64, 128);
        assertSpec(swa, "wo_a", DType.BF16, 16, 1024, 4096);
        assertSpec(swa, "wo_b", DType.INT8, 7168, 16384);
        Dsv4Signature csa = Dsv4Signature.of(Dsv4Program.CSA, Dsv4Preset.pro());
        assertSpec(csa, "cmp_wkv", DType.BF16, 1024, 7168);
        assertSpec(csa, "compress_state", DType.FP32, 65, 4, 2048);
        assertSpec(csa, "compress_state_block_table", DType.INT32, 4096);
        assertSpec(csa, "idx_wq_b", DType.INT8, 1536, 8192);
        assertSpec(csa, "inner_compress_state", DType.FP32, 65, 4, 512);
        assertSpec(csa, "idx_kv_cache", DType.INT8, 64, 128, 1, 128);
        assertSpec(csa, "idx_kv_scale", DType.FP32, 64, 128, 1, 1);
        assertSpec(csa, "cmp_kv", DType.BF16, 32, 128, 1, 512);
        Dsv4Signature hca = Dsv4Signature.of(Dsv4Program.HCA, Dsv4Preset.pro());
        assertSpec(hca, "cmp_ape", DType.FP32, 128, 512);
        assertSpec(hca, "compress_state", DType.FP32, 64, 8, 1024);
        assertSpec(hca, "compress_state_block_table", DType.INT32, 2048);
        assertSpec(hca, "x_out", DType.FP32, 128, 4, 7168);
        assertThat(hca.tensor("x_out").direction()).isEqualTo(TensorSpec.Direction.OUT);
        assertThat(hca.tensor("cmp_kv").direction()).isEqualTo(TensorSpec.Direction.INOUT);
    }

    private static void assertSpec(Dsv4Signature s, String name, DType dtype, long... shape) {
        TensorSpec t = s.tensor(name);
        assertThat(t.dtype()).as(name).isEqualTo(dtype);
        assertThat(t.shape()).as(name).containsExactly(shape);
    }

    @Test
    void generatedTinyInputsFollowTheirRules() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(128, 100);
            Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.CSA, p), 3, arena);
            // wq_b: per output column, the largest code is ±127 and code·scale reproduces a bf16 weight in range
            Tensor wqb = in.get("wq_b");
            Tensor wqbs = in.get("wq_b_scale");
            int cols = (int) wqb.shape(1);
            double bound = 0.5 / Math.sqrt(p.dims().qLora());
            for (int j = 0; j < cols; j += 97) {
                double amax = 0;
                for (int k = 0; k < wqb.shape(0); k++) {
                    double code = wqb.getDouble((long) k * cols + j);
                    amax = Math.max(amax, Math.abs(code));
                    assertThat(Math.abs(code * wqbs.getDouble(j))).isLessThanOrEqualTo(bound * 1.01);
                }
                assertThat(amax).isEqualTo(127);
            }
            // Hadamard rows are orthonormal up to the bf16 rounding of 128^-0.5
            Tensor had = in.get("hadamard_idx");
            for (int i = 0; i < 128; i += 31) {
                for (int j = 0; j < 128; j += 17) {
                    double dot = 0;
                    for (int k = 0; k < 128; k++) {
                        dot += had.getDouble(i * 128L + k) * had.getDouble(j * 128L + k);
                    }
                    assertThat(dot).isCloseTo(i == j ? 1 : 0, within(0.01));
                }
            }
            // RoPE table: second half duplicates the first, position 0 is cos 1 / sin 0
            Tensor cos = in.get("freqs_cos");
            Tensor sin = in.get("freqs_sin");
            for (int pos : new int[] {0, 5, 1000}) {
                for (int i = 0; i < 32; i++) {
                    assertThat(cos.getDouble(pos * 64L + i)).isEqualTo(cos.getDouble(pos * 64L + 32 + i));
                }
            }
            assertThat(cos.getDouble(0)).isEqualTo(1.0);
            assertThat(sin.getDouble(31)).isEqualTo(0.0);
            // slot mappings: active rows only; compressed slots for window-closing tokens; distinct state rows
            Tensor cmpSlots = in.get("cmp_slot_mapping");
            Tensor stateSlots = in.get("state_slot_mapping");
            Set<Double> seen = new HashSet<>();
            for (int t = 0; t < 128; t++) {
                int pos = 128 + t;
                double cs = cmpSlots.getDouble(t);
                if (t >= 100) {
                    assertThat(cs).isEqualTo(-1);
                    assertThat(stateSlots.getDouble(t)).isEqualTo(-1);
                    continue;
                }
                assertThat(cs).isEqualTo((pos + 1) % 4 == 0 ? (pos + 1) / 4 - 1 : -1);
                assertThat(seen.add(stateSlots.getDouble(t))).isTrue();
            }
            // the CSA state prefix: rows of positions 120..127 are drawn, the rest of the pool is zero
            Tensor state = in.get("compress_state");
            Tensor table = in.get("compress_state_block_table");
            int width = 4 * p.dims().headDim();
            long row127 = (long) table.getDouble(127 / 4) * 4 + 127 % 4;
            long row0 = (long) table.getDouble(0) * 4;
            assertThat(state.getDouble(row127 * width)).isNotZero();
            assertThat(state.getDouble(row0 * width)).isZero();
            // attention sinks are non-zero at tiny
            assertThat(in.get("attn_sink").getDouble(0)).isBetween(2.0, 5.0);
            // idx_wq_b: per output row max |code| is 127 and the dequantised weights have std 0.108
            Tensor iw = in.get("idx_wq_b");
            Tensor is = in.get("idx_wq_b_scale");
            int out = (int) iw.shape(1);
            double s2 = 0;
            double max0 = 0;
            for (int k = 0; k < iw.shape(0); k++) {
                max0 = Math.max(max0, Math.abs(iw.getDouble((long) k * out)));
                for (int o = 0; o < out; o++) {
                    double v = iw.getDouble((long) k * out + o) * is.getDouble(o);
                    s2 += v * v;
                }
            }
            assertThat(max0).isEqualTo(127);
            assertThat(Math.sqrt(s2 / iw.numel())).isCloseTo(0.108, within(0.003));
        }
    }

    @Test
    void inputsDependOnlyOnTheSeedAndTheTensorName() {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Tensor> a = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.SWA, Dsv4Preset.tiny()), 5,
                    arena);
            Map<String, Tensor> b = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.HCA, Dsv4Preset.tiny()), 5,
                    arena);
            Map<String, Tensor> c = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.SWA, Dsv4Preset.tiny()), 6,
                    arena);
            // same seed, same name: identical even though the parameter lists differ
            assertThat(a.get("wo_b").toDoubleArray()).containsExactly(b.get("wo_b").toDoubleArray());
            assertThat(a.get("wq_a").toDoubleArray()).isNotEqualTo(c.get("wq_a").toDoubleArray());
        }
    }

    @Test
    void initDescriptionsAreReadable() {
        Dsv4Signature s = Dsv4Signature.of(Dsv4Program.CSA, Dsv4Preset.pro());
        assertThat(s.tensor("cmp_wkv").init().describe()).isEqualTo("normal(0.0, 0.0245)");
        assertThat(s.tensor("compress_state_block_table").init().describe()).isEqualTo("(17·b + 3) mod 65");
        assertThat(s.tensor("idx_wq_b").init().describe()).contains("gen_shared_weight([8192, 1536]");
        assertThat(s.tensor("freqs_cos").init().describe()).contains("YaRN factor 16.0 original 65536");
        assertThat(Dsv4Signature.of(Dsv4Program.SWA, Dsv4Preset.pro()).tensor("freqs_cos").init().describe())
                .contains("no YaRN");
    }
}
