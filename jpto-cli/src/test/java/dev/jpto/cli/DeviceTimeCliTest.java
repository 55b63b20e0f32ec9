package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run prints its estimated device time (docs/device-model.md) beside the host figures: {@code jpto run}'s
 * runtime line, {@code --bench}, {@code jpto exec} and the L3 per-chip lines; the figure depends on the program only,
 * not on the scheduler thread count or the host's load; {@code --enable-chip-swimlane} adds a device-time swimlane.
 */
@Timeout(600)
class DeviceTimeCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RUNTIME_DEVICE = Pattern.compile(
            "\\[RUN] runtime \\(.*\\) \\d+ tasks, chip [0-9.]+ us, device_us=([0-9.]+) \\(estimated\\)");
    private final CliSession cli = new CliSession();

    /** The device_us of the runtime line of the last command's output. */
    private String runtimeDeviceUs() {
        Matcher m = RUNTIME_DEVICE.matcher(cli.out());
        assertThat(m.find()).as("a runtime line with device_us in:%n%s", cli.out()).isTrue();
        return m.group(1);
    }

    @Test
    void theDeviceTimeIsTheSameWithTwoOrFourSchedulerThreadsAndUnderHostLoad() throws Exception {
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "aicpu_thread_num=2"))
                .as(cli.err()).isZero();
        String quiet = runtimeDeviceUs();
        assertThat(Double.parseDouble(quiet)).isGreaterThan(1.0); // more than the runtime overheads of one task

        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 2; i++) { // as many spinning threads as the CI machine has cores
            busy.add(Thread.ofPlatform().daemon().start(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }));
        }
        try {
            assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "aicpu_thread_num=4"))
                    .as(cli.err()).isZero();
        } finally {
            stop.set(true);
            for (Thread t : busy) {
                t.join(10_000);
            }
        }
        assertThat(runtimeDeviceUs()).isEqualTo(quiet);
    }

    @Test
    void benchPrintsOneDeviceFigurePerRoundEqualToTheRunsOwn() {
        assertThat(cli.run("run", "basic.softmax", "--preset", "tiny", "--bench", "2")).as(cli.err()).isZero();
        String run = runtimeDeviceUs();
        assertThat(cli.out()).containsPattern("effective_us \\(2 rounds\\) min=[0-9.]+ median=[0-9.]+ mean=[0-9.]+ "
                + "max=[0-9.]+ device_us=" + Pattern.quote(run) + " \\(estimated, per round\\)");
    }

    @Test
    void execPrintsTheSameDeviceTimeAsRun(@TempDir Path tmp) {
        Path runDir = tmp.resolve("run");
        assertThat(cli.run("run", "basic.rmsnorm", "--preset", "tiny", "--output-dir", runDir.toString(),
                "--save-tensors")).as(cli.err()).isZero();
        String run = runtimeDeviceUs();
        assertThat(cli.run("exec", runDir.resolve("work_dir").toString(), "--inputs", runDir.resolve("inputs").toString(),
                "--outputs", tmp.resolve("out").toString())).as(cli.err()).isZero();
        assertThat(cli.out()).containsPattern("\\[RUN] runtime \\(.*\\) rmsnorm: \\d+ tasks, chip [0-9.]+ us, device_us="
                + Pattern.quote(run) + " \\(estimated\\)");
    }

    @Test
    void theL3PerChipLinesCarryTheirDeviceTime() {
        assertThat(cli.run("run", "l3.tiled_matmul", "--preset", "tiny")).as(cli.err()).isZero();
        Matcher m = Pattern.compile("\\[L3] device (\\d): (\\d+) call\\(s\\), runtime [0-9.]+ us, device_us=([0-9.]+) "
                + "\\(estimated\\), heap high-water").matcher(cli.out());
        int chips = 0;
        while (m.find()) {
            chips++;
            assertThat(Double.parseDouble(m.group(3))).as("chip %s", m.group(1)).isPositive();
        }
        assertThat(chips).as(cli.out()).isEqualTo(2);
    }

    @Test
    void theDeviceSwimlaneHasEveryTaskAndEndsWithTheDeviceTime(@TempDir Path dir) throws Exception {
        assertThat(cli.run("run", "basic.softmax", "--preset", "tiny", "--output-dir", dir.toString(),
                "--enable-chip-swimlane")).as(cli.err()).isZero();
        double deviceUs = Double.parseDouble(runtimeDeviceUs());
        assertThat(cli.out()).contains("[RUN] dfx under " + dir.toAbsolutePath()
                + ": chip_swimlane.json, chip_swimlane_records.json, chip_swimlane_device.json");
        JsonNode trace = JSON.readTree(dir.resolve("chip_swimlane_device.json").toFile());
        int tasks = 0;
        double lastEnd = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("task")) {
                tasks++;
                assertThat(e.get("name").asText()).isEqualTo("softmax_rows");
                lastEnd = Math.max(lastEnd, e.get("ts").asDouble() + e.get("dur").asDouble());
            }
        }
        assertThat(tasks).isEqualTo(4); // basic.softmax tiny: 128 rows in blocks of 32
        // the run ends when the last task's completion (0.6 µs after its kernel ends) is seen; printed to 0.1 µs
        assertThat(lastEnd + 0.6).isCloseTo(deviceUs, within(0.051));
    }
}
