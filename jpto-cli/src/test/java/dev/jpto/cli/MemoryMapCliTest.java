package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The on-chip memory check through the command line: {@code jpto compile --memory-map} prints each kernel's
 * placement, a user's kernel that does not fit is refused with exit 2 by compile and by run, and a kernel its
 * program exempts is shown as not fitting without failing the compile.
 */
@Timeout(180)
class MemoryMapCliTest {
    @TempDir
    Path tmp;

    private final CliSession cli = new CliSession();

    private int jpto(String... args) {
        return cli.run(Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString()), args);
    }

    private String out() {
        return cli.out();
    }

    private String err() {
        return cli.err();
    }

    @Test
    void theMemoryMapShowsTheTutorialsTilesInTheirBuffers() {
        String src = UserProgramsCliTest.TUTORIAL.toString();
        assertThat(jpto("compile", src, "--preset", "demo", "-o", tmp.resolve("wd").toString(), "--memory-map"))
                .as(err()).isZero();
        // t = 128, k = 128, fp32: each of tx, tw, tc is 128 x 128 x 4 B = 65536 B
        assertThat(out()).contains("[MEM] on-chip buffers on a2a3sim", "[MEM] kernel dense_mm (aic)",
                "[MEM]   L1     131072 /  524288 B   25%  tx fp32[128x128] 65536 B, tw fp32[128x128] 65536 B",
                "[MEM]   L0A     65536 /   65536 B  100%  tx fp32[128x128] 65536 B",
                "[MEM]   L0C     65536 /  131072 B   50%  tc fp32[128x128] 65536 B",
                "[MEM] kernel bias_relu (aiv)",
                "[MEM]   UB      66048 /  196608 B   34%  ta fp32[128x128] 65536 B, tb fp32[1x128] 512 B")
                .doesNotContain("DOES NOT FIT").contains("platform=a2a3sim");
        assertThat(tmp.resolve("wd").resolve("manifest.json")).isRegularFile();
    }

    @Test
    void aUserKernelThatDoesNotFitIsRefusedByCompileAndRunWithExit2() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("src"));
        Path src = dir.resolve("ReluDense.java");
        String text = Files.readString(UserProgramsCliTest.TUTORIAL);
        String wider = text.replace("new Preset(\"demo\", 512, 128, 512, 128)",
                "new Preset(\"demo\", 512, 256, 512, 128)");
        assertThat(wider).isNotEqualTo(text);
        Files.writeString(src, wider);
        String expected = "kernel dense_mm (aic): L0A needs 131072 B (its largest operand), has 65536 B (64 KiB): "
                + "tiles tx fp32[128x256] 131072 B (ReluDense.java:" + lineOf(wider, "kb.tile(\"tx\"") + ")";

        assertThat(jpto("compile", src.toString(), "--preset", "demo", "-p", "a5sim", "-o",
                tmp.resolve("wd").toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("program relu_dense does not fit the on-chip buffers of a5sim", expected,
                "L0B needs 131072 B").doesNotContain("\tat ");
        assertThat(tmp.resolve("wd").resolve("manifest.json")).doesNotExist();

        assertThat(jpto("run", src.toString(), "--preset", "demo")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("of a2a3sim", expected);
        assertThat(jpto("run", src.toString())).as(err()).isZero(); // tiny still fits
    }

    @Test
    void aKernelItsProgramExemptsIsShownNotFittingAndStillCompiles() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("src"));
        Path src = dir.resolve("ReluDense.java");
        String text = Files.readString(UserProgramsCliTest.TUTORIAL);
        String exempt = text.replace("new Preset(\"demo\", 512, 128, 512, 128)",
                        "new Preset(\"demo\", 512, 256, 512, 128)")
                .replace("Map.of(\"y\", Comparators.allclose(1e-4, 1e-4)), Map.of());",
                        "Map.of(\"y\", Comparators.allclose(1e-4, 1e-4)), Map.of()).withMemoryExemption("
                                + "dev.jpto.lib.registry.MemoryExemption.of(\"tried on the host first\", "
                                + "java.util.Set.of(\"dense_mm\")));");
        assertThat(exempt).isNotEqualTo(text).contains("withMemoryExemption");
        Files.writeString(src, exempt);
        assertThat(jpto("compile", src.toString(), "--preset", "demo", "-o", tmp.resolve("wd").toString(),
                "--memory-map")).as(err()).isZero();
        assertThat(out()).contains("[MEM] kernel dense_mm (aic)", "DOES NOT FIT",
                "[MEM] exempt from the check (tried on the host first): [dense_mm]");
        assertThat(tmp.resolve("wd").resolve("manifest.json")).isRegularFile();
    }

    /** The 1-based line of {@code text} that contains {@code fragment}: where the user's source declares a tile. */
    private static int lineOf(String text, String fragment) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line contains " + fragment);
    }
}
