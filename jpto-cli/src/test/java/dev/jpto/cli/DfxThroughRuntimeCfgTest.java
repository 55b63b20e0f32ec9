package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DFX outputs switched on through {@code --runtime-cfg} (the form the help gives for levels above 1) write under
 * {@code --output-dir} / {@code --outputs} as the flags do, and a run that fails still says which diagnostic files
 * it wrote; its swimlane shows the submit that failed.
 */
@Timeout(180)
class DfxThroughRuntimeCfgTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    private int jpto(String... args) {
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), args);
    }

    private String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSwimlaneLevelGivenAsRuntimeCfgWritesUnderTheOutputDir(@TempDir Path dir) throws IOException {
        assertThat(jpto("run", "basic.vector_add", "--preset", "tiny", "--output-dir", dir.toString(),
                "--runtime-cfg", "enable_chip_swimlane=4")).as(err()).isZero();
        assertThat(out()).contains("output_prefix=" + dir.toAbsolutePath())
                .contains("[RUN] dfx under " + dir.toAbsolutePath() + ": chip_swimlane.json, "
                        + "chip_swimlane_records.json, chip_swimlane_device.json").contains("[RUN] PASS");
        JsonNode records = JSON.readTree(dir.resolve("chip_swimlane_records.json").toFile());
        assertThat(records.get("chip_swimlane_level").asInt()).isEqualTo(4);
        assertThat(records.get("aicpu_orchestrator_phases")).isNotEmpty();
    }

    @Test
    void aDfxRuntimeCfgKeyWithoutAnOutputDirNamesTheEntryAndTheFlag() {
        assertThat(jpto("run", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "aicpu_thread_num=3",
                "--runtime-cfg", "enable_dump_args=2")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).isEqualTo("jpto run: --runtime-cfg enable_dump_args=2 writes files: give --output-dir DIR "
                + "(or --runtime-cfg output_prefix=DIR)" + System.lineSeparator());
        errBuf.reset();
        // a level of 0 writes nothing: no directory is needed
        assertThat(jpto("plan", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "enable_pmu=0"))
                .as(err()).isZero();
    }

    @Test
    void aFailedRunListsItsDiagnosticFilesAndItsSwimlaneShowsTheFailedSubmit(@TempDir Path dir) throws IOException {
        // basic.matmul's partial products live on the ring heap: 1 KiB cannot hold one
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(), "--runtime-cfg",
                "enable_chip_swimlane=4", "--runtime-cfg", "ring_heap=1024")).as(err()).isEqualTo(ExitCodes.RUNTIME);
        assertThat(err()).startsWith("jpto run: runtime error: orch_error_code=2 HEAP_RING_DEADLOCK");
        List<String> lines = out().lines().toList();
        int fail = indexOf(lines, "[RUN] FAIL ");
        assertThat(lines.get(fail)).contains("runtime error orch_error_code=2 HEAP_RING_DEADLOCK");
        assertThat(lines.get(fail + 1)).isEqualTo("[RUN] dfx under " + dir.toAbsolutePath()
                + ": chip_swimlane.json, chip_swimlane_records.json");

        List<JsonNode> failed = new ArrayList<>();
        for (JsonNode e : JSON.readTree(dir.resolve("chip_swimlane.json").toFile()).get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("submit")) {
                failed.add(e);
            }
        }
        assertThat(failed).hasSize(1);
        assertThat(failed.getFirst().get("name").asText()).isEqualTo("submit mm_partial FAILED HEAP_RING_DEADLOCK");
        assertThat(failed.getFirst().get("args").get("error_code").asInt()).isEqualTo(2);
        JsonNode phases = JSON.readTree(dir.resolve("chip_swimlane_records.json").toFile())
                .get("aicpu_orchestrator_phases");
        assertThat(phases.get(phases.size() - 1).get("error").asText()).isEqualTo("HEAP_RING_DEADLOCK");
    }

    @Test
    void execTakesDfxRuntimeCfgKeysIntoTheOutputsDirAndListsThemWhenTheRunFails(@TempDir Path tmp)
            throws IOException {
        Path run = tmp.resolve("run");
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--output-dir", run.toString(),
                "--save-tensors")).as(err()).isZero();
        Path outs = Files.createDirectories(tmp.resolve("o"));
        outBuf.reset();
        assertThat(jpto("exec", run.resolve("work_dir").toString(), "--inputs", run.resolve("inputs").toString(),
                "--outputs", outs.toString(), "--runtime-cfg", "enable_dump_args=2")).as(err()).isZero();
        assertThat(outs.resolve("args_dump/args_dump.json")).isRegularFile();
        assertThat(out()).contains("[RUN] dfx under " + outs.toAbsolutePath() + ": args_dump/args_dump.json");

        Path failing = Files.createDirectories(tmp.resolve("f"));
        outBuf.reset();
        assertThat(jpto("exec", run.resolve("work_dir").toString(), "--inputs", run.resolve("inputs").toString(),
                "--outputs", failing.toString(), "--runtime-cfg", "enable_dep_gen=1", "--runtime-cfg",
                "ring_heap=1024")).isEqualTo(ExitCodes.RUNTIME);
        assertThat(err()).contains("jpto exec: runtime error: orch_error_code=2 HEAP_RING_DEADLOCK");
        assertThat(out()).contains("[RUN] dfx under " + failing.toAbsolutePath() + ": deps.json, deps.dot")
                .doesNotContain("[RUN] wrote");
        assertThat(failing.resolve("deps.json")).isRegularFile();
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starts with '" + prefix + "' in " + lines);
    }
}
