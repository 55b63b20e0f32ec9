package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.runtime.chip.Chip;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ring sizes the simulator cannot hold are a bad config with a clear message (the CLI's exit 2), never an
 * OutOfMemoryError with a stack trace: beyond the per-ring limits, when the preallocated slots and pools cannot fit
 * the JVM's maximum heap (checked before anything runs), and when they fit it but not the heap left (the backstop).
 */
@Timeout(120)
class SimulatorLimitsTest {
    private static CallConfig sized(long window, long depPool) {
        return CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(window)
                .withRingDepPool(depPool));
    }

    @Test
    void perRingLimitsNameTheFieldTheRingAndTheLimit() {
        assertThatThrownBy(() -> Chip.checkSimulatorLimits(sized(Chip.MAX_SIM_TASK_WINDOW * 2, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ring_task_window for ring 0")
                .hasMessageContaining("ring_task_window[0]=" + Chip.MAX_SIM_TASK_WINDOW * 2)
                .hasMessageContaining("try " + Chip.MAX_SIM_TASK_WINDOW);
        assertThatThrownBy(() -> Chip.checkSimulatorLimits(sized(0, Chip.MAX_SIM_DEP_POOL * 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ring_dep_pool for ring 0")
                .hasMessageContaining("try " + Chip.MAX_SIM_DEP_POOL);
    }

    @Test
    void slotsThatCannotFitTheMaximumHeapAreRefusedWithTheSizesAndTheFix() {
        CallConfig big = sized(1 << 20, 1 << 16);
        long need = Chip.preallocatedHeapBytes(big.runtimeEnv());
        // Four rings of 2^20 slots: at least 64 B shared line + 64 B record per slot.
        assertThat(need).isGreaterThan(4L * (1 << 20) * 128);
        assertThatThrownBy(() -> Chip.checkSimulatorLimits(big, 256L << 20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than this JVM's maximum heap of 256MiB")
                .hasMessageContaining("ring_task_window=1048576,1048576,1048576,1048576")
                .hasMessageContaining("ring_dep_pool=65536,65536,65536,65536")
                .hasMessageContaining("the defaults " + RingField.TASK_WINDOW.defaultValue())
                .hasMessageContaining("JPTO_JAVA_OPTS=-Xmx" + ((need >> 30) + 2) + "g");
        Chip.checkSimulatorLimits(big, need); // exactly enough
        Chip.checkSimulatorLimits(CallConfig.defaults(), 256L << 20);
    }

    @Test
    void slotsThatFitTheMaximumButNotTheHeapLeftAreABadConfigAndTheChipRunsAfterwards() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                HeapShortChild.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("refused: java.lang.IllegalArgumentException: ring_task_window and ring_dep_pool "
                + "need about").contains("more than this JVM could allocate (maximum heap").contains("in use)")
                .contains("ring_task_window=131072,131072,131072,131072").contains("next run: 1 task(s)");
    }

    /** The child JVM: most of a small heap held, then rings that fit the maximum but not what is left. */
    public static final class HeapShortChild {
        public static void main(String[] args) throws IOException {
            CallConfig rings = sized(1 << 17, 0);
            long need = Chip.preallocatedHeapBytes(rings.runtimeEnv());
            long max = Runtime.getRuntime().maxMemory();
            if (need >= max / 2) {
                throw new IllegalStateException("the test needs rings below half the heap: " + need + " of " + max);
            }
            List<long[]> held = new ArrayList<>();
            for (long b = 0; b < max - need / 2; b += 1 << 20) { // leaves less than the rings need
                try {
                    held.add(new long[1 << 17]);
                } catch (OutOfMemoryError full) {
                    break;
                }
            }
            try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
                try {
                    chip.run(orch -> orch.submit("k", CoreType.AIV, ctx -> { }), rings);
                    System.out.println("no error with " + held.size() + " MiB held");
                } catch (IllegalArgumentException e) {
                    System.out.println("refused: " + e);
                }
                held.clear();
                RunReport r = chip.run(orch -> orch.submit("k", CoreType.AIV, ctx -> { }), CallConfig.defaults());
                System.out.println("next run: " + r.tasksExecuted() + " task(s)");
            }
        }
    }
}
