package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.InPlaceOutputs;
import org.junit.jupiter.api.Test;

/** Which outputs a chip program reads in place, found from its orchestration's arguments. */
class InPlaceOutputsTest {
    @Test
    void theDsv4AttentionPoolsAreReadInPlaceAndTheOutputIsNot() {
        // the CSA signature declares six InOut pools and one plain output, x_out
        var spec = Programs.registry().get("dsv4.prefill_attention_csa").spec("tiny");
        assertThat(InPlaceOutputs.of(spec.program())).containsExactlyInAnyOrder("compress_state",
                "inner_compress_state", "kv_cache", "cmp_kv", "idx_kv_cache", "idx_kv_scale");
    }

    @Test
    void aMatmulWritesItsOutputWithoutReadingIt() {
        var spec = Programs.registry().get("basic.matmul").spec("tiny");
        assertThat(InPlaceOutputs.of(spec.program())).isEmpty();
    }
}
