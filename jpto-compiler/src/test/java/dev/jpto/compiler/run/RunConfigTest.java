package dev.jpto.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.runtime.Platform;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunConfigTest {
    @Test
    void keysAreTheSnakeCaseComponentNames() {
        List<String> fromComponents = new ArrayList<>();
        for (RecordComponent c : RunConfig.class.getRecordComponents()) {
            StringBuilder sb = new StringBuilder();
            for (char ch : c.getName().toCharArray()) {
                sb.append(Character.isUpperCase(ch) ? "_" + Character.toLowerCase(ch) : String.valueOf(ch));
            }
            fromComponents.add(sb.toString());
        }
        assertThat(RunConfigKeys.keys()).isEqualTo(fromComponents).containsSubsequence("platform", "device_id",
                "aicpu_thread_num", "enable_chip_swimlane", "enable_dump_args", "enable_pmu", "enable_dep_gen",
                "enable_scope_stats", "output_prefix", "ring_task_window", "ring_heap", "ring_dep_pool", "os_env");
    }

    @Test
    void anIntegerBeyondIntStatesTheFieldsOwnRangeWithTheValueAsGiven() {
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("aicpu_thread_num", "9999999999")))
                .hasMessage("aicpu_thread_num must be <= 64 in the simulator: aicpu_thread_num=9999999999 (try 0 for "
                        + "the platform default)");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("aicpu_thread_num", "-9999999999")))
                .hasMessageStartingWith("aicpu_thread_num must be 0 (platform default) or >= 2")
                .hasMessageContaining("aicpu_thread_num=-9999999999 (try 2)");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("enable_chip_swimlane", "4294967296")))
                .hasMessage("enable_chip_swimlane must be in [0, 4]: enable_chip_swimlane=4294967296 (try 4)");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("device_id", "-4294967298")))
                .hasMessage("device_id must be >= 0: device_id=-4294967298 (try 0)");
        // every int is a valid PMU event type: the message says where the int range ends (not a missing directory)
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("enable_pmu", "2147483648")))
                .hasMessage("enable_pmu must be <= 2147483647: enable_pmu=2147483648");
    }

    @Test
    void helpHasOneDescribedLinePerKey() {
        List<String> help = RunConfigKeys.help();
        assertThat(help).hasSameSizeAs(RunConfigKeys.keys());
        assertThat(help.get(0)).startsWith("platform").contains("a2a3sim").contains("chip platform");
        assertThat(help).anySatisfy(l -> assertThat(l).startsWith("ring_heap").contains("(unset)")
                .contains("heap bytes per ring"));
        assertThat(help).anySatisfy(l -> assertThat(l).startsWith("os_env").contains("not ring sizing"));
    }

    @Test
    void defaultsAreThoseOfTheSpec() {
        RunConfig d = RunConfig.defaults();
        assertThat(d.platform()).isEqualTo(Platform.A2A3SIM);
        assertThat(d.deviceId()).isZero();
        assertThat(d.aicpuThreadNum()).isZero();
        assertThat(d.ringHeap()).isEqualTo(RingSize.absent());
        assertThat(d.osEnv()).isEmpty();
        assertThat(d.asMap()).containsOnlyKeys("platform", "device_id", "aicpu_thread_num", "enable_chip_swimlane",
                "enable_dump_args", "enable_pmu", "enable_dep_gen", "enable_scope_stats");
    }

    @Test
    void parsesScalarAndPerRingSizes() {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "512MiB", "ring_task_window", "1024",
                "ring_dep_pool", "0,0,4096,0", "platform", "a5sim", "device_id", "3", "enable_scope_stats", "true",
                "output_prefix", "/tmp/x", "os_env", "SIMPLER_SCHEDULER_TIMEOUT_MS=2000"));
        assertThat(c.ringHeap()).isEqualTo(RingSize.of(512L << 20));
        assertThat(c.ringTaskWindow()).isEqualTo(RingSize.of(1024));
        assertThat(c.ringDepPool()).isEqualTo(RingSize.of(0, 0, 4096, 0));
        assertThat(c.platform()).isEqualTo(Platform.A5SIM);
        assertThat(c.deviceId()).isEqualTo(3);
        assertThat(c.enableScopeStats()).isTrue();
        assertThat(c.osEnv()).containsEntry("SIMPLER_SCHEDULER_TIMEOUT_MS", "2000");
        assertThat(RunConfig.fromMap(Map.of("ring_heap", "0,0,2GiB,0")).ringHeap())
                .isEqualTo(RingSize.of(0, 0, 2L << 30, 0));
        assertThat(RunConfig.fromMap(c.asMap())).isEqualTo(c);
        assertThat(c.asMap()).containsEntry("ring_heap", "536870912").containsEntry("ring_dep_pool", "0,0,4096,0");
    }

    @Test
    void rejectsUnknownKeysListingTheValidOnes() {
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_heaps", "1GiB")))
                .hasMessageStartingWith("unknown run config key 'ring_heaps'; valid keys: platform, device_id, ")
                .hasMessageContaining("ring_heap, ring_dep_pool, os_env");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("runtime_env", "x")))
                .hasMessageContaining("unknown run config key 'runtime_env'");
    }

    @Test
    void rejectsMalformedValuesAndWrongCounts() {
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_heap", "1,2,3")))
                .hasMessageStartingWith("ring_heap takes one value or exactly 4 comma-separated values")
                .hasMessageContaining("ring_heap=1,2,3 has 3 values");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_heap", "12 parsecs")))
                .hasMessageStartingWith("ring_heap=12 parsecs: size '12 parsecs' is not a byte count");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_dep_pool", "1,2,x,4")))
                .hasMessageStartingWith("ring_dep_pool=1,2,x,4: value 2: size 'x'");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("device_id", "zero")))
                .hasMessage("device_id must be an integer: device_id=zero");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("enable_dep_gen", "yes")))
                .hasMessageContaining("enable_dep_gen must be true/false");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("platform", "tpu")))
                .hasMessageContaining("platform=tpu: unknown platform 'tpu'; valid: a2a3sim, a5sim, a2a3, a5");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("os_env", "JUSTANAME")))
                .hasMessageContaining("os_env takes NAME=value pairs");
    }

    @Test
    void validatesEveryRuleWithTheKeyTheValueAndAFix() {
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_task_window", "1000")))
                .hasMessageContaining("ring_task_window for ring 0 must be a power of two")
                .hasMessageContaining("ring_task_window[0]=1000 (try 1024)");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_heap", "512")))
                .hasMessageContaining("ring_heap for ring 0 must be at least 1024 bytes");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_heap", "0")))
                .hasMessageStartingWith("ring_heap must be positive: ring_heap=0 (omit ring_heap to keep the defaults");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("ring_dep_pool", "0,0,2,0")))
                .hasMessageContaining("ring_dep_pool for ring 2 must be in [4, 2147483647]");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("aicpu_thread_num", "1")))
                .hasMessageContaining("aicpu_thread_num must be 0 (platform default) or >= 2");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("enable_scope_stats", "1")))
                .hasMessageContaining("output_prefix is required when a diagnostic flag is on");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("device_id", "-1")))
                .hasMessage("device_id must be >= 0: device_id=-1 (try 0)");
        assertThatThrownBy(() -> RunConfig.fromMap(Map.of("os_env", "PTO2_RING_HEAP=1073741824")))
                .hasMessageContaining("os_env PTO2_RING_HEAP is retired");
        assertThatThrownBy(() -> RunConfig.defaults().withOsEnv(Map.of("A-B", "1")))
                .hasMessageContaining("os_env names must be environment variable names");
    }

    @Test
    void heapNeedNotBeAPowerOfTwo() {
        assertThat(RunConfig.fromMap(Map.of("ring_heap", "768MiB")).ringHeap()).isEqualTo(RingSize.of(768L << 20));
    }

    @Test
    void copyWithChangesTouchesOnlyItsField() {
        RunConfig base = RunConfig.defaults().withOutputPrefix("/p").withEnableScopeStats(true);
        RunConfig heap = base.withRingHeap(1 << 20, 2 << 20, 3 << 20, 4 << 20);
        assertThat(heap.ringHeap()).isEqualTo(RingSize.of(1 << 20, 2 << 20, 3 << 20, 4 << 20));
        assertThat(heap.withRingHeap(RingSize.absent())).isEqualTo(base);
        assertThat(base.with("ring_task_window", "64").ringTaskWindow()).isEqualTo(RingSize.of(64));
        assertThat(base.with("ring_task_window", "64").outputPrefix()).isEqualTo("/p");
    }

    @Test
    void osEnvNeverSizesRingsAndUnknownNamesAreRejected() {
        assertThatThrownBy(() -> OsEnv.chipOptions(Map.of("PTO2_RING_HEAP", "1073741824")))
                .hasMessageContaining("os_env PTO2_RING_HEAP is retired and would not size any ring")
                .hasMessageContaining("ring_heap=512MiB");
        assertThatThrownBy(() -> OsEnv.chipOptions(Map.of("HOME", "/root")))
                .hasMessageContaining("os_env HOME is not read by the simulated chip; accepted names: "
                        + "SIMPLER_SCHEDULER_TIMEOUT_MS, PTO2_TENSOR_DATA_TIMEOUT_MS");
        assertThat(OsEnv.chipOptions(Map.of("SIMPLER_SCHEDULER_TIMEOUT_MS", "2500")).schedulerTimeout().toMillis())
                .isEqualTo(2500);
        assertThat(OsEnv.chipOptions(Map.of("PTO2_TENSOR_DATA_TIMEOUT_MS", "700")).tensorDataTimeout().toMillis())
                .isEqualTo(700);
        assertThatThrownBy(() -> OsEnv.chipOptions(Map.of("SIMPLER_SCHEDULER_TIMEOUT_MS", "0")))
                .hasMessageContaining("must be a decimal number of milliseconds")
                .hasMessageEndingWith("(default 10000)");
        assertThatThrownBy(() -> OsEnv.chipOptions(Map.of("PTO2_TENSOR_DATA_TIMEOUT_MS", "x")))
                .hasMessageEndingWith("PTO2_TENSOR_DATA_TIMEOUT_MS=x (default 15000)");
    }
}
