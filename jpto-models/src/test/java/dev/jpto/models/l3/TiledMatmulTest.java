package dev.jpto.models.l3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code l3.tiled_matmul} through the golden runner on one and two chips. */
class TiledMatmulTest {
    private static final ProgramSpec TINY = Programs.registry().get(TiledMatmul.NAME).spec("tiny");

    private record Logged(RunResult result, String log) {
    }

    private static Logged run(int chips, Map<String, String> runtimeCfg) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        RunResult r = GoldenRunner.runJit(TINY, RunSpec.defaults(out).withPlatform(dev.jpto.runtime.Platform.A2A3SIM,
                2).withChips(chips), runtimeCfg);
        return new Logged(r, buf.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theProgramSplitsRowsAndKAcrossCallsWithTheSumsAfterTheirMatmuls() {
        L3Program p = TINY.l3().orElseThrow();
        assertThat(p.chips()).isEqualTo(2);
        assertThat(p.calls()).hasSize(12);
        for (int r = 0; r < 4; r++) {
            assertThat(p.predecessors(8 + r)).containsExactly(2 * r, 2 * r + 1);
            assertThat(p.predecessors(2 * r)).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0} chip(s)")
    @ValueSource(ints = {1, 2})
    void passesWithOneLinePerChip(int chips) {
        Logged l = run(chips, Map.of());
        assertThat(l.result().passed()).as(l.log()).isTrue();
        L3Report r = l.result().l3().orElseThrow();
        assertThat(r.devices()).extracting(L3Report.Device::deviceId)
                .containsExactlyElementsOf(chips == 1 ? List.of(2) : List.of(2, 3));
        assertThat(r.devices().stream().mapToInt(L3Report.Device::calls).sum()).isEqualTo(12);
        for (L3Report.Device d : r.devices()) {
            assertThat(l.log()).containsPattern("(?m)^\\[L3\\] device " + d.deviceId() + ": " + d.calls()
                    + " call\\(s\\), runtime \\d+\\.\\d us, device_us=" + String.format(java.util.Locale.ROOT, "%.1f",
                    d.deviceMicros()) + " \\(estimated\\), heap high-water .+ of .+$");
            assertThat(d.deviceMicros()).isPositive();
        }
        assertThat(l.log()).contains("on " + chips + " chip(s)");
    }

    @Test
    void aScalarRingHeapReachesEveryRingOfEveryChip() {
        Logged l = run(2, Map.of("ring_heap", "3MiB"));
        assertThat(l.result().passed()).as(l.log()).isTrue();
        L3Report r = l.result().l3().orElseThrow();
        assertThat(r.calls()).extracting(L3Report.Call::deviceId).contains(2, 3);
        for (L3Report.Call c : r.calls()) {
            for (RunReport.Ring ring : c.report().rings()) {
                assertThat(ring.heapBytes()).as("device %d call %s ring %d", c.deviceId(), c.label(), ring.ring())
                        .isEqualTo(3L << 20);
            }
        }
    }

    @Test
    void aChipFailureEndsTheLogAndKeepsTheCode() {
        // demo's chip matmul keeps 4×2 partial tiles of 64 KiB on the heap ring: 16 KiB deadlocks on every chip
        ProgramSpec demo = Programs.registry().get(TiledMatmul.NAME).spec("demo");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> GoldenRunner.runJit(demo, RunSpec.defaults(out), Map.of("ring_heap", "16KiB")))
                .isInstanceOfSatisfying(ChipRuntimeException.class,
                        e -> assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK))
                .hasMessageContaining("on device ");
        assertThat(buf.toString(StandardCharsets.UTF_8).strip().lines().reduce((a, b) -> b).orElseThrow())
                .contains("[RUN] FAIL").contains("orch_error_code=2 HEAP_RING_DEADLOCK");
    }
}
