package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.launch.DryRun;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example of advice that failed when tried: dsv4.prefill_attention_swa (tiny) at
 * {@code ring_heap=4MiB} said "at least 16MiB" from the chip next to the plan's 17042KiB, and 16MiB deadlocked
 * again. The message now gives one size, and that size, taken literally, runs (by dry run: the real runtime's
 * allocators with empty kernels).
 */
class RingAdviceLiteralTest {
    @Test
    void theSwaTinyHeapAdviceAt4MiBIsOneSizeThatPasses() {
        ProgramSpec spec = Programs.registry().get("dsv4.prefill_attention_swa").spec("tiny");
        RunConfig at4 = RuntimeCfg.resolve(spec.runtimeCfg(), Map.of("ring_heap", "4MiB"), Platform.A2A3SIM, 0);
        ChipRuntimeException e = catchThrowableOfType(ChipRuntimeException.class,
                () -> DryRun.run(Compiler.compileInMemory(spec.program()), at4));
        assertThat(e).as("a dry run at ring_heap=4MiB").isNotNull();
        assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
        String advice = "set ring_heap for ring 1 to at least 17MiB (runtime_cfg ring_heap=4MiB,17MiB,4MiB,4MiB)";
        assertThat(e.getMessage()).contains("could not reserve 12582912 heap bytes on ring 1 (capacity 4194304",
                advice, "needs ring_heap 17MiB on ring 1 (in force 4MiB); use runtime_cfg "
                        + "ring_heap=1MiB,17MiB,1MiB,1MiB")
                .doesNotContain("16MiB", "17042KiB");
        assertThat(e.getMessage().split("to at least", -1)).as("one advice").hasSize(2);

        RunConfig literally = at4.with("ring_heap", "4MiB,17MiB,4MiB,4MiB");
        RunReport ok = DryRun.run(Compiler.compileInMemory(spec.program()), literally);
        assertThat(ok.ring(1).heapBytes()).isEqualTo(17L << 20);
        assertThat(ok.ring(1).heapMax()).as("16MiB could not hold it").isGreaterThan(16L << 20);
    }
}
