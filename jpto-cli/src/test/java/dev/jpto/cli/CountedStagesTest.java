package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.Progress;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runner hands its long stages' counts to the progress (issue 26 §4): input generation counts the bytes of the
 * program's inputs, the chip run its tasks completed of those submitted; at the end the counts are the run's.
 */
@Timeout(120)
class CountedStagesTest {
    private record Counted(LongSupplier done, LongSupplier total, String unit) {
    }

    @Test
    void inputBytesAndChipTasksAreCountedToTheirTotals() {
        Map<String, Counted> seen = new LinkedHashMap<>();
        Progress recording = new Progress() {
            @Override
            public void counting(String label, LongSupplier done, LongSupplier total, String unit) {
                seen.put(label, new Counted(done, total, unit));
            }

            @Override
            public void begin(String label, int total) {
            }

            @Override
            public void advance(int done) {
            }

            @Override
            public void end() {
            }
        };
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunResult r = GoldenRunner.runJit(Programs.registry().get("basic.vector_add").spec("tiny"),
                RunSpec.defaults(log).withBench(0, recording), Map.of());
        assertThat(r.passed()).isTrue();
        assertThat(seen.keySet()).containsExactly("generate inputs", "runtime");
        Counted inputs = seen.get("generate inputs");
        long bytes = 2L * 128 * 256 * 4; // x and y: fp32[128, 256]
        assertThat(inputs.unit()).isEqualTo(Progress.BYTES);
        assertThat(inputs.total().getAsLong()).isEqualTo(bytes);
        assertThat(inputs.done().getAsLong()).isEqualTo(bytes);
        Counted tasks = seen.get("runtime");
        assertThat(tasks.unit()).isEqualTo(Progress.TASKS);
        assertThat(tasks.total().getAsLong()).isEqualTo(r.report().tasksExecuted()).isPositive();
        assertThat(tasks.done().getAsLong()).isEqualTo(r.report().tasksExecuted());
    }
}
