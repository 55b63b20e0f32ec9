package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpto dump ls|show}: the args dump of basic.matmul tiny (8 mm_partial tasks, 4 mm_reduce). */
@Timeout(300)
class DumpCommandTest {
    private static final CliSession CLI = new CliSession();

    @TempDir
    static Path tmp;
    private static Path dir;

    @BeforeAll
    static void runWithArgsDump() {
        dir = tmp.resolve("run");
        assertThat(CLI.run("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(), "--dump-args"))
                .as(CLI.err()).isZero();
    }

    @Test
    void lsListsEveryDumpedArgumentAndFilters() {
        assertThat(CLI.run("dump", "ls", dir.toString())).as(CLI.err()).isZero();
        List<String> all = CLI.out().lines().toList();
        // each task: 2 inputs before dispatch, 1 output (mm_reduce: output_existing) after completion
        assertThat(all).hasSize(1 + 12 * 3);
        assertThat(all.getFirst()).startsWith("task").contains("kernel", "arg", "role", "stage", "file");
        assertThat(CLI.run("dump", "ls", dir.toString(), "--task", "0x0000000000000000")).isZero();
        assertThat(CLI.out().lines().skip(1).toList()).hasSize(3)
                .allMatch(l -> l.startsWith("0x0000000000000000 mm_partial"));
        assertThat(CLI.run("dump", "ls", dir.toString(), "--kernel", "mm_reduce", "--arg", "2")).isZero();
        assertThat(CLI.out().lines().skip(1).toList()).hasSize(4).allMatch(l -> l.contains(" output_existing after "));
    }

    @Test
    void showPrintsStatisticsAndFirstValuesOfTheFile() throws Exception {
        assertThat(CLI.run("dump", "show", dir.toString(), "--task", "0", "--arg", "2", "--count", "4"))
                .as(CLI.err()).isZero();
        float[] v = float32Npy(dir.resolve("args/0x0000000000000000/2_output_after.npy"));
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        double sum = 0;
        for (float x : v) {
            min = Math.min(min, x);
            max = Math.max(max, x);
            sum += x;
        }
        List<String> lines = CLI.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("0x0000000000000000 mm_partial arg 2 output after fp32[64,64]");
        assertThat(lines.get(1)).isEqualTo(String.format(Locale.ROOT,
                "  numel=4096 min=%.6g max=%.6g mean=%.6g nan=0 inf=0", min, max, sum / v.length));
        assertThat(lines.get(2)).isEqualTo(String.format(Locale.ROOT, "  [%.6g, %.6g, %.6g, %.6g, …]",
                v[0], v[1], v[2], v[3]));
    }

    @Test
    void badSelectionsAreUsageErrorsNamingWhatExists() {
        assertThat(CLI.run("dump", "ls", dir.toString(), "--task", "0x77")).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("--task 0x77: no such task in the dump; dumped tasks: 0x0000000000000000");
        assertThat(CLI.run("dump", "ls", dir.toString(), "--kernel", "mm")).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("dumped kernels: mm_partial, mm_reduce");
        assertThat(CLI.run("dump", "ls", dir.toString(), "--task", "zero")).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("not a task id");
        assertThat(CLI.run("dump", "show", dir.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("narrow it with --task ID or --kernel K");
        assertThat(CLI.run("dump", "ls", tmp.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("holds no args dump");
        assertThat(CLI.run("dump")).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("give a subcommand");
    }

    /** A version-1 .npy of little-endian float32, parsed here without jpto's reader. */
    private static float[] float32Npy(Path file) throws Exception {
        byte[] b = Files.readAllBytes(file);
        int headerLen = (b[8] & 0xff) | (b[9] & 0xff) << 8;
        assertThat(new String(b, 10, headerLen, StandardCharsets.ISO_8859_1)).contains("'<f4'");
        ByteBuffer data = ByteBuffer.wrap(b, 10 + headerLen, b.length - 10 - headerLen).order(ByteOrder.LITTLE_ENDIAN);
        float[] v = new float[data.remaining() / 4];
        data.asFloatBuffer().get(v);
        return v;
    }
}
