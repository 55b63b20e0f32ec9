package dev.jpto.lib.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks before a run's first stage (issue 20 items 3, 10, 11): the memory budget, the output locations, the
 * disk space and the chip count, each refusal naming what it refuses. Sizes are computed here by hand
 * (elements × bytes per element), independently of the code under test.
 */
@Timeout(30)
class PreflightTest {
    private static final TensorDecl BOMB = new TensorDecl("z", DType.FP32, new long[] {65536, 65536});
    private static final TensorDecl SMALL = new TensorDecl("x", DType.BF16, new long[] {128, 256});

    @Test
    void maxMemoryTakesRingHeapSizesAndRefusesZeroAndGarbageNamingTheFlag() {
        assertThat(MemoryBudget.parse("1KiB")).isEqualTo(new MemoryBudget(1024, "--max-memory 1KiB"));
        assertThat(MemoryBudget.parse("8g").bytes()).isEqualTo(8L << 30);
        assertThatThrownBy(() -> MemoryBudget.parse("0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--max-memory must be at least 1 byte: --max-memory 0 (e.g. --max-memory 8GiB)");
        assertThatThrownBy(() -> MemoryBudget.parse("lots")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--max-memory lots: size 'lots' is not a byte count");
    }

    @Test
    void theDefaultBudgetIsThreeQuartersOfPhysicalMemory() throws IOException {
        MemoryBudget b = MemoryBudget.ofPhysicalMemory();
        assertThat(b.origin()).startsWith("75% of the ").endsWith(" of physical memory");
        Path meminfo = Path.of("/proc/meminfo");
        if (Files.isReadable(meminfo)) { // an independent reading (a container's limit may be lower)
            long kib = Files.readAllLines(meminfo).stream().filter(l -> l.startsWith("MemTotal:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElseThrow();
            assertThat(b.bytes()).isPositive().isLessThanOrEqualTo(kib * 1024 / 100 * 75);
        }
    }

    @Test
    void aBudgetRefusalNamesTheLargestTensorItsBytesTheTotalTheBudgetAndTheFlag() {
        MemoryBudget eightGiB = MemoryBudget.parse("8GiB");
        List<TensorUse> uses = List.of(new TensorUse("input", SMALL, 1), new TensorUse("output", BOMB, 1));
        assertThatThrownBy(() -> eightGiB.check(uses)).isInstanceOf(JitConfigException.class)
                .hasMessageContaining("output 'z' fp32[65536, 65536] needs 16GiB (17179869184 bytes)")
                // 65536 * 65536 * 4 + 128 * 256 * 2 = 17179934720 bytes = 16GiB + 64KiB
                .hasMessageContaining("the 2 tensor(s) of the command need 16.0GiB in all")
                .hasMessageContaining("over the memory budget of 8GiB (--max-memory 8GiB)")
                .hasMessageContaining("give --max-memory SIZE");
        eightGiB.check(List.of(new TensorUse("output", SMALL, 3))); // 192KiB: fits
    }

    @Test
    void copiesCountAndAnOverflowingShapeIsRefusedNamingTheTensor() {
        TensorUse twice = new TensorUse("output", SMALL, 2);
        assertThat(twice.bytes()).isEqualTo(2L * 128 * 256 * 2);
        assertThat(twice).hasToString("output 'x' bf16[128, 256] (2 copies)");
        TensorUse huge = new TensorUse("input", new TensorDecl("w", DType.FP32, new long[] {1L << 31, 1L << 31}), 1);
        assertThatThrownBy(huge::bytes).isInstanceOf(JitConfigException.class)
                .hasMessage("input 'w' fp32[2147483648, 2147483648] has more than 9223372036854775807 bytes: "
                        + "no host can hold it");
    }

    @Test
    void anOutputDirUnderARegularFileIsRefusedNamingTheFlagAndTheFile(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> OutputDir.requireWritable("--outputs", file.resolve("out")))
                .isInstanceOf(JitConfigException.class)
                .hasMessage("--outputs " + file.resolve("out") + " cannot be created: " + file + " is not a directory;"
                        + " give a directory (created if missing)");
        assertThatThrownBy(() -> OutputDir.requireWritable("--output-dir", file))
                .hasMessage("--output-dir " + file + " is not a directory; give a directory (created if missing)");
    }

    @Test
    void aMissingDirUnderAWritableOneIsAcceptedWithoutBeingCreatedOrLeavingAProbe(@TempDir Path tmp)
            throws IOException {
        OutputDir.requireWritable("--outputs", tmp.resolve("a/b"));
        OutputDir.requireWritable("--outputs", tmp);
        assertThat(tmp.resolve("a")).doesNotExist();
        try (var files = Files.list(tmp)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aReadOnlyDirIsRefusedWithTheOsReason(@TempDir Path tmp) throws IOException {
        Path ro = Files.createDirectory(tmp.resolve("ro"));
        assertThat(ro.toFile().setWritable(false, false)).isTrue();
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(ro), "root ignores permissions");
            assertThatThrownBy(() -> OutputDir.requireWritable("--outputs", ro.resolve("out")))
                    .isInstanceOf(JitConfigException.class)
                    .hasMessage("--outputs " + ro.resolve("out") + " is not writable: cannot create a file in " + ro
                            + " (permission denied)");
        } finally {
            ro.toFile().setWritable(true, true);
        }
    }

    @Test
    void moreBytesThanTheDiskHasFreeAreRefusedNamingTheDirNeededAndFree(@TempDir Path tmp) throws IOException {
        long free = Files.getFileStore(tmp).getUsableSpace();
        long need = free + (1L << 40); // a TiB more than there is
        assertThatThrownBy(() -> OutputDir.requireSpace("--outputs", tmp.resolve("out"), need))
                .isInstanceOf(JitConfigException.class)
                .hasMessageContaining("not enough disk space for --outputs " + tmp.resolve("out"))
                .hasMessageContaining("the command writes ")
                .hasMessageContaining("(" + need + " bytes) there")
                .hasMessageContaining("file system has ");
        OutputDir.requireSpace("--outputs", tmp.resolve("out"), 1); // one byte fits
    }

    @Test
    void preflightChecksChipsOutputsMemoryAndDiskInOneCall(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        MemoryBudget ample = MemoryBudget.parse("1TiB");
        new Preflight().tensor("input", SMALL, 1).output("--outputs", tmp.resolve("o"), List.of(SMALL)).check(ample);
        assertThatThrownBy(() -> new Preflight().chips(2, Integer.MAX_VALUE).check(ample))
                .isInstanceOf(JitConfigException.class)
                .hasMessage("2 chips from device 2147483647 need device ids up to 2147483648, past the largest "
                        + "device id 2147483647 (use device 2147483646 or lower)");
        assertThatThrownBy(() -> new Preflight().chips(65, 0).check(ample))
                .hasMessage("an L3 run takes 1..64 chips: chips=65 (try 2)");
        RunConfig dfx = RunConfig.defaults().withEnableDepGen(true).withOutputPrefix(file.toString());
        assertThatThrownBy(() -> new Preflight().outputPrefix(dfx).check(ample))
                .hasMessage("runtime_cfg output_prefix " + file + " is not a directory; give a directory (created if "
                        + "missing)");
        assertThatThrownBy(() -> new Preflight().tensor("output", BOMB, 1).check(MemoryBudget.parse("1GiB")))
                .hasMessageStartingWith("output 'z' fp32[65536, 65536] needs 16GiB");
    }

    @Test
    void fileBytesCountWidenedHalfPrecisionAndAHeaderBlock() {
        assertThat(TensorFiles.fileBytes(SMALL)).isEqualTo(128L * 256 * 4 + 4096); // bf16 is stored as <f4
        assertThat(TensorFiles.fileBytes(BOMB)).isEqualTo(65536L * 65536 * 4 + 4096);
    }

    @Test
    void ioErrorsNameThePathAndTheOsReason() {
        assertThat(IoErrors.describe(new AccessDeniedException("/out/z.npy"))).isEqualTo("/out/z.npy: permission denied");
        assertThat(IoErrors.describe(new FileSystemException("/out/z.npy", null, "No space left on device")))
                .isEqualTo("/out/z.npy: No space left on device");
        assertThat(IoErrors.describe(new IOException("No space left on device"))).isEqualTo("No space left on device");
    }
}
