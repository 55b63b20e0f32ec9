package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchLoopCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = JptoCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void timesAFreshAndAReuseRunInChildJvms(@TempDir Path dir) {
        int code = run("bench", "loop", "basic.matmul", "--preset", "tiny", "--rounds", "1", "--dir", dir.toString());
        assertThat(code).as(out + "\n" + err).isZero();
        assertThat(out.toString()).contains("jpto bench loop basic.matmul --preset tiny: 1 warm round(s), seed 0",
                "JVM start (--version)", "inputs (generate|load)", "golden (compute|load)", "runtime (first, cold)",
                "warm median", "first / warm", "process wall", "peak RSS");
        assertThat(out.toString().lines().filter(l -> l.startsWith("verdict")).findFirst().orElseThrow())
                .matches("verdict +PASS +PASS");
        // the reuse run read what the fresh one saved
        assertThat(dir.resolve("fresh").resolve("meta.json")).exists();
        assertThat(dir.resolve("reuse.log.out")).content().contains("\"load inputs\"", "\"load golden\"")
                .doesNotContain("\"generate inputs\"");
    }

    @Test
    void theTableTakesEachStageFromBothDocuments() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode fresh = json.readTree("""
                {"stages": [{"name": "compile", "seconds": 0.5}, {"name": "generate inputs", "seconds": 2.0},
                  {"name": "compute golden", "seconds": 4.0}, {"name": "runtime", "seconds": 9.0},
                  {"name": "validate", "seconds": 0.25}],
                 "benchmark": {"median_us": 3000000}, "total_seconds": 16.0, "passed": true}""");
        JsonNode reuse = json.readTree("""
                {"stages": [{"name": "compile", "seconds": 0.5}, {"name": "load inputs", "seconds": 0.5},
                  {"name": "load golden", "seconds": 1.0}, {"name": "runtime", "seconds": 6.0},
                  {"name": "validate", "seconds": 0.25}],
                 "benchmark": {"median_us": 2000000}, "total_seconds": 8.0, "passed": false}""");
        Path log = Path.of("x.log");
        List<String> lines = LoopTable.lines(new BenchLoopCommand.LoopChild.Result(0, 1.5, -1, null, log),
                new BenchLoopCommand.LoopChild.Result(0, 20.0, 2097152, fresh, log),
                new BenchLoopCommand.LoopChild.Result(1, 10.0, 1048576, reuse, log), 1_000_000_000L);
        assertThat(lines).anySatisfy(l -> assertThat(l).matches(
                "inputs \\(generate\\|load\\) +2\\.000 s +0\\.500 s +0\\.25  500\\.0 MB/s over 954 MiB.*"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("golden \\(compute\\|load\\) +4\\.000 s +1\\.000 s"
                + " +0\\.25"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("first / warm +3\\.0x +3\\.0x +target <= 2x"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("peak RSS +2\\.00 GiB +1\\.00 GiB +0\\.50 .*"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("verdict +PASS +FAIL"));
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(120));
    }

    @Test
    void roundsBelowOneAreRefused() {
        assertThat(run("bench", "loop", "basic.matmul", "--rounds", "0")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("jpto bench loop: --rounds must be >= 1: --rounds 0");
    }

    @Test
    void theChildCommandIsThisJvmWithTheCliMain() {
        List<String> cmd = BenchLoopCommand.LoopChild.command();
        assertThat(Files.isExecutable(Path.of(cmd.getFirst()))).isTrue();
        assertThat(cmd.getLast()).endsWith(Main.class.getName());
    }
}
