package dev.jpto.lib.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.models.dsv4.Dsv4Preset;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** dsv4.prefill_mtp at tiny: the L3 program on 2 simulated chips against the per-rank goldens. */
class Dsv4MtpTinyTest {

    @Test
    void prefillMtpTinyPassesEveryComparatorOnTwoChips() {
        try (Arena arena = Arena.ofShared()) {
            L3SpecRun r = L3SpecRun.run(Dsv4Mtp.spec(Dsv4Preset.tiny()), 2, 11, arena);
            r.report().lines().forEach(System.out::println);
            for (Map.Entry<String, CompareResult> e : r.results().entrySet()) {
                System.out.println(e.getKey() + ": " + e.getValue().description());
            }
            assertThat(r.results()).containsKeys("hidden_out", "pre_hc_hidden_out", "projected",
                    "kv_cache");
            assertThat(r.results().values()).allSatisfy(c -> assertThat(c.passed()).as(c.description()).isTrue());
        }
    }
}
