package dev.jpto.runtime;

import dev.jpto.runtime.chip.Chip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void sizesParseUnitsAndFormatExactly() {
        assertThat(Sizes.parseBytes("65536")).isEqualTo(65536);
        assertThat(Sizes.parseBytes("512MiB")).isEqualTo(512L << 20);
        assertThat(Sizes.parseBytes("1GiB")).isEqualTo(1L << 30);
        assertThat(Sizes.parseBytes(" 64kib ")).isEqualTo(65536);
        assertThat(Sizes.parseBytes("2T")).isEqualTo(2L << 40);
        assertThat(Sizes.format(512L << 20)).isEqualTo("512MiB");
        assertThat(Sizes.format(1L << 30)).isEqualTo("1GiB");
        assertThat(Sizes.format(3072)).isEqualTo("3KiB");
        assertThat(Sizes.format(1536)).isEqualTo("1536");
        assertThat(Sizes.approx(403620460)).isEqualTo("384.9MiB");
        assertThat(Sizes.approx(1536)).isEqualTo("1.5KiB");
        assertThat(Sizes.approx(900)).isEqualTo("900B");
        assertThat(Sizes.approx(0)).isEqualTo("0B");
        assertThat(Sizes.approx(512L << 20)).isEqualTo("512MiB");
        assertThat(Sizes.readable((16L << 40) + 4096)).isEqualTo("16.0TiB"); // approx: 17179869188KiB
        assertThat(Sizes.readable((16L << 30) + (64L << 10))).isEqualTo("16.0GiB");
        assertThat(Sizes.readable(16L << 30)).isEqualTo("16GiB");
        assertThat(Sizes.readable(1536)).isEqualTo("1.5KiB");
        assertThat(Sizes.readable(900)).isEqualTo("900B");
        assertThatThrownBy(() -> Sizes.parseBytes("512MB")).hasMessageContaining("KiB, MiB, GiB or TiB");
        assertThatThrownBy(() -> Sizes.parseBytes("-1")).hasMessageContaining("not a byte count");
        assertThatThrownBy(() -> Sizes.parseBytes("99999999TiB")).hasMessageContaining("64 bits");
    }

    @Test
    void theHostThreadDefaultGivesEachChipOneSchedulerPerCoreUpToThePlatformDefault() {
        // min(platform default, 1 + max(1, cores / chips)): one orchestrator plus the chip's share of the cores
        assertThat(Platform.aicpuThreadsOnHost(4, 2, 1)).isEqualTo(3);
        assertThat(Platform.aicpuThreadsOnHost(4, 2, 2)).isEqualTo(2);
        assertThat(Platform.aicpuThreadsOnHost(4, 2, 8)).isEqualTo(2);
        assertThat(Platform.aicpuThreadsOnHost(4, 16, 1)).isEqualTo(4);
        assertThat(Platform.aicpuThreadsOnHost(5, 8, 2)).isEqualTo(5);
        assertThat(Platform.aicpuThreadsOnHost(5, 6, 2)).isEqualTo(4);
        assertThat(Platform.aicpuThreadsOnHost(4, 1, 1)).isEqualTo(2);
        assertThatThrownBy(() -> Platform.aicpuThreadsOnHost(4, 2, 0)).hasMessageContaining("chips=0");
        int cores = Runtime.getRuntime().availableProcessors();
        assertThat(Platform.A5SIM.hostAicpuThreadNum(2)).isEqualTo(Math.min(5, 1 + Math.max(1, cores / 2)));
        // a value set is used as is, whatever the host
        assertThat(CallConfig.defaults().withAicpuThreadNum(7).aicpuThreads(Platform.A2A3SIM, 4)).isEqualTo(7);
        assertThat(CallConfig.defaults().aicpuThreads(Platform.A2A3SIM, 2))
                .isEqualTo(Platform.A2A3SIM.hostAicpuThreadNum(2));
        assertThatThrownBy(() -> ChipOptions.defaults().withHostChips(0)).hasMessageContaining("host chips must be >= 1");
    }

    @Test
    void aChipSharingTheHostStartsItsShareOfSchedulerThreads() {
        for (int chips : new int[] {1, 2}) {
            try (Chip chip = Chip.open(Platform.A2A3SIM, 0, ChipOptions.defaults().withHostChips(chips))) {
                RunReport r = chip.run(orch -> orch.submit("k", CoreType.AIV, ctx -> { }), CallConfig.defaults());
                assertThat(r.aicpuThreadNum()).as("chips=%d", chips).isEqualTo(Platform.A2A3SIM.hostAicpuThreadNum(chips));
                assertThat(chip.schedulerThreadIds()).hasSize(r.aicpuThreadNum() - 1);
            }
        }
    }

    @Test
    void platformsParseAndCarryCoreCounts() {
        assertThat(Platform.parse("a2a3sim").aicCores()).isEqualTo(24);
        assertThat(Platform.parse("a2a3sim").aivCores()).isEqualTo(48);
        assertThat(Platform.parse("A5SIM").aivCores()).isEqualTo(72);
        assertThat(Platform.A5SIM.defaultAicpuThreadNum()).isEqualTo(5);
        assertThat(Platform.A2A3SIM.defaultAicpuThreadNum()).isEqualTo(4);
        assertThat(Platform.A5.simulated()).isFalse();
        assertThatThrownBy(() -> Platform.parse("a6")).hasMessage("unknown platform 'a6'; valid: a2a3sim, a5sim, a2a3, a5");
    }

    @Test
    void runtimeEnvDefaultsAndResolution() {
        RuntimeEnv env = RuntimeEnv.defaults().withRingHeap(0, 512L << 20, 0, 0);
        assertThat(env.heap(0)).isEqualTo(256L << 20);
        assertThat(env.heap(1)).isEqualTo(512L << 20);
        assertThat(env.taskWindow(3)).isEqualTo(16384);
        assertThat(env.depPool(2)).isEqualTo(16384);
        assertThat(RuntimeEnv.defaults().withRingTaskWindow(64).ringTaskWindow()).containsExactly(64, 64, 64, 64);
        assertThat(env).isEqualTo(RuntimeEnv.defaults().withRingHeap(0, 512L << 20, 0, 0));
        assertThatThrownBy(() -> new RuntimeEnv(new long[3], null, null))
                .hasMessageContaining("RuntimeEnv.ring_task_window list must contain exactly 4 entries");
    }

    @Test
    void runtimeEnvRulesNameFieldRingRuleValueAndFix() {
        assertThatThrownBy(() -> RuntimeEnv.defaults().withRingTaskWindow(0, 1000, 0, 0).validate())
                .hasMessage("ring_task_window for ring 1 must be a power of two in [4, 1073741824] (0 = default 16384): "
                        + "ring_task_window[1]=1000 (try 1024)");
        assertThatThrownBy(() -> RuntimeEnv.defaults().withRingTaskWindow(2).validate())
                .hasMessageContaining("ring_task_window[0]=2 (try 4)");
        assertThatThrownBy(() -> RuntimeEnv.defaults().withRingTaskWindow(1L << 31).validate())
                .hasMessageContaining("(try 1073741824)");
        assertThatThrownBy(() -> RuntimeEnv.defaults().withRingHeap(0, 0, 1000, 0).validate())
                .hasMessage("ring_heap for ring 2 must be at least 1024 bytes (0 = default 256MiB): ring_heap[2]=1000 "
                        + "(try 1024 or more, e.g. 512MiB)");
        assertThatThrownBy(() -> RuntimeEnv.defaults().withRingDepPool(0, 0, 0, 3).validate())
                .hasMessage("ring_dep_pool for ring 3 must be in [4, 2147483647] (0 = default 16384): ring_dep_pool[3]=3 "
                        + "(try 4)");
        assertThatThrownBy(() -> RuntimeEnv.defaults().withRingHeap(Long.MAX_VALUE / 2).validate())
                .hasMessageContaining("overflows 64 bits");
        // Minimums are accepted; heap needs no power of two here.
        RuntimeEnv.defaults().withRingTaskWindow(4).withRingHeap(1024, 1500, 0, 0).withRingDepPool(4).validate();
    }

    @Test
    void callConfigRules() {
        CallConfig.defaults().validate();
        assertThat(CallConfig.defaults().aicpuThreads(Platform.A5SIM)).isEqualTo(Platform.A5SIM.hostAicpuThreadNum(1));
        assertThat(CallConfig.defaults().withAicpuThreadNum(3).aicpuThreads(Platform.A5SIM)).isEqualTo(3);
        assertThatThrownBy(() -> CallConfig.defaults().withAicpuThreadNum(1).validate())
                .hasMessageContaining("aicpu_thread_num must be 0 (platform default) or >= 2")
                .hasMessageContaining("aicpu_thread_num=1 (try 2)");
        assertThatThrownBy(() -> new CallConfig(0, 0, 0, 0, false, true, "", null).validate())
                .hasMessageContaining("output_prefix is required when a diagnostic flag is on (enable_scope_stats=1)");
        assertThatThrownBy(() -> new CallConfig(0, 5, 0, 0, false, false, "x", null).validate())
                .hasMessage("enable_chip_swimlane must be in [0, 4]: enable_chip_swimlane=5 (try 4)");
        assertThatThrownBy(() -> new CallConfig(0, 0, 0, 0, false, true, "x".repeat(1024), null).validate())
                .hasMessageContaining("shorter than 1024 bytes");
        assertThatThrownBy(() -> CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(5))
                .validate()).hasMessageContaining("ring_task_window[0]=5 (try 8)");
    }

    @Test
    void chipRejectsInvalidOrUnsupportedConfigBeforeRunning() {
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            boolean[] ran = {false};
            assertThatThrownBy(() -> chip.run(o -> ran[0] = true, CallConfig.defaults().withAicpuThreadNum(1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> chip.run(o -> ran[0] = true, new CallConfig(0, 5, 0, 0, false, false, "out", null)))
                    .hasMessageContaining("enable_chip_swimlane must be in [0, 4]");
            assertThat(ran[0]).isFalse();
        }
    }
}
