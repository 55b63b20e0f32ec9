package dev.jpto.cli;

import static dev.jpto.cli.HostileWorkDirs.edit;
import static dev.jpto.cli.HostileWorkDirs.newCase;
import static dev.jpto.cli.HostileWorkDirs.run;
import static dev.jpto.cli.HostileWorkDirs.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jpto.cli.HostileWorkDirs.Case;
import dev.jpto.cli.HostileWorkDirs.Result;
import dev.jpto.lib.runner.DefaultRuntimeCfg;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 20, items 1-4 and 12 (work-dir part): a work dir, and the inputs and outputs directories, are hostile
 * data. Each case copies a freshly compiled work dir, breaks it, runs {@code jpto exec} in-process and checks the
 * exit code, the one-line message (naming the file and field, and what is allowed) and that nothing beside the
 * given directories was read into a result or written.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileWorkDirTest {
    private static final String ALLOWED_CFG_KEYS = "aicpu_thread_num, ring_task_window, ring_heap, ring_dep_pool";

    @TempDir
    Path tmp;

    private static void assertRefused(Result r, String... fragments) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().toList()).as("one line, no stack trace").hasSize(1);
        assertThat(r.err()).startsWith("jpto exec: ").contains(fragments).doesNotContain("internal error");
    }

    // ---- item 1: tensor names and the files they name ----------------------------------------------------------

    /** An L3 host tensor named as a path: on main exec read inputs and wrote outputs wherever the name led. */
    @ParameterizedTest
    @ValueSource(strings = {"relative", "absolute"})
    void l3HostTensorNamesThatArePathsAreRefusedAndNothingOutsideIsTouched(String form) throws IOException {
        Case c = newCase(HostileWorkDirs.l3(), tmp);
        Path l3 = c.wd().resolve("l3.json");
        // the input a read from beside --inputs, the output c written over the sentinel beside --outputs
        Files.copy(c.in().resolve("a.npy"), c.root().resolve("a.npy"));
        String a = form.equals("relative") ? "../a" : c.root().resolve("a").toString();
        String out = form.equals("relative") ? "../outside/sentinel" : c.outside().resolve("sentinel").toString();
        edit(l3, "\"name\" : \"a\"", "\"name\" : \"" + a + "\"");
        edit(l3, "\"tensor\" : \"a\"", "\"tensor\" : \"" + a + "\"");
        edit(l3, "\"name\" : \"c\"", "\"name\" : \"" + out + "\"");
        edit(l3, "\"tensor\" : \"c\"", "\"tensor\" : \"" + out + "\"");
        Map<String, String> before = snapshot(c.root());

        Result r = run(c.exec());

        assertRefused(r, "l3.json: at $.tensors[0].name: expected an identifier ([A-Za-z_][A-Za-z0-9_]*",
                "found \"" + a + "\"");
        assertThat(snapshot(c.root())).as("nothing written anywhere, --outputs not even created").isEqualTo(before);
    }

    @Test
    void aChipManifestTensorNameThatIsAPathIsRefusedAtItsJsonField() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        edit(c.wd().resolve("manifest.json"), "\"name\" : \"z\"", "\"name\" : \"../outside/sentinel\"");
        edit(c.wd().resolve("orchestration.json"), "\"slice\" : \"z\"", "\"slice\" : \"../outside/sentinel\"");
        Map<String, String> before = snapshot(c.root());

        assertRefused(run(c.exec()), "manifest.json: at $.outputs[0].name: expected an identifier",
                "found \"../outside/sentinel\"");
        assertThat(snapshot(c.root())).isEqualTo(before);
    }

    /** A link in --inputs to a .npy elsewhere: on main it was read (exit 0). */
    @Test
    void anInputLinkedOutsideTheInputsDirIsRefused() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Path elsewhere = Files.move(c.in().resolve("x.npy"), c.outside().resolve("x.npy"));
        Files.createSymbolicLink(c.in().resolve("x.npy"), elsewhere);

        assertRefused(run(c.exec()), "x.npy: resolves to " + elsewhere.toRealPath(), "outside the directory "
                + c.in().toRealPath(), "expected input x: fp32[128, 256] in " + c.in());
        assertThat(c.out()).doesNotExist();
    }

    /** A link in --outputs to a file elsewhere: on main the run wrote through it (exit 0, sentinel overwritten). */
    @Test
    void anOutputFileLinkedOutsideTheOutputsDirIsRefusedBeforeTheRun() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Files.createDirectories(c.out());
        Files.createSymbolicLink(c.out().resolve("z.npy"), c.outside().resolve(HostileWorkDirs.SENTINEL));
        Map<String, String> before = snapshot(c.root());

        Result r = run(c.exec());

        assertRefused(r, "z.npy: resolves to " + c.outside().toRealPath().resolve(HostileWorkDirs.SENTINEL),
                "outside the directory " + c.out().toRealPath(), "the file of tensor 'z'");
        assertThat(r.out()).as("refused before the run").doesNotContain("[RUN] runtime");
        assertThat(snapshot(c.root())).isEqualTo(before);
    }

    // ---- item 2: the work dir's default_runtime_cfg.properties ---------------------------------------------------

    /** On main, enable_dump_args with output_prefix wrote argument dumps outside --outputs (exit 0). */
    @Test
    void aDefaultRuntimeCfgThatSwitchesOnDiagnosticsIsRefusedNamingTheFileTheKeyAndTheAllowedKeys()
            throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Path dfx = c.outside().resolve("dfx");
        Files.writeString(c.wd().resolve(DefaultRuntimeCfg.FILE), "enable_dump_args=1\noutput_prefix=" + dfx + "\n");

        assertRefused(run(c.exec()), c.wd().resolve(DefaultRuntimeCfg.FILE) + ": key 'enable_dump_args' is not "
                + "allowed in a work dir's default runtime_cfg", "(" + ALLOWED_CFG_KEYS + ")", "--runtime-cfg");
        assertThat(dfx).doesNotExist();
        assertThat(c.out()).doesNotExist();
    }

    @Test
    void aDefaultRuntimeCfgLinkedOutsideTheWorkDirIsRefused() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Path elsewhere = Files.writeString(c.outside().resolve("cfg.properties"), "ring_heap=1GiB\n");
        Files.createSymbolicLink(c.wd().resolve(DefaultRuntimeCfg.FILE), elsewhere);

        assertRefused(run(c.exec()), DefaultRuntimeCfg.FILE + ": resolves to " + elsewhere.toRealPath(),
                "outside the directory " + c.wd().toRealPath());
    }

    /** On main the message read "runtime_cfg: ring_heap=lots: ...", as if the value came from --runtime-cfg. */
    @Test
    void aDefaultRuntimeCfgValueErrorNamesTheFileNotTheFlag() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Files.writeString(c.wd().resolve(DefaultRuntimeCfg.FILE), "ring_heap=lots\n");

        Result r = run(c.exec());

        assertRefused(r, c.wd().resolve(DefaultRuntimeCfg.FILE) + ": ring_heap=lots: size 'lots' is not a byte count");
        assertThat(r.err()).doesNotContain("runtime_cfg: ring_heap");
    }

    @Test
    void aDefaultRuntimeCfgWithTheProgramsNeedsStillApplies() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Files.writeString(c.wd().resolve(DefaultRuntimeCfg.FILE), "aicpu_thread_num=3\nring_heap=64MiB\n");

        Result r = run(c.exec());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("[RUN] the work dir's default runtime_cfg {aicpu_thread_num=3, ring_heap=64MiB}");
    }

    // ---- item 4: FIFOs and huge files -------------------------------------------------------------------------

    /** On main, opening a FIFO blocked exec forever; now it is refused before it is opened. */
    @ParameterizedTest
    @ValueSource(strings = {"wd/manifest.json", "wd/kernels/add_tile.pto", "wd/orchestration.json",
            "wd/" + DefaultRuntimeCfg.FILE, "in/x.npy"})
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFifoNamedByTheWorkDirOrAnInputIsRefusedWithoutBlocking(String file) throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Path fifo = c.root().resolve(file);
        assumeTrue(HostileWorkDirs.mkfifo(fifo), "mkfifo is not available");

        assertRefused(run(c.exec()), fifo.getFileName() + ": is a FIFO, socket or device, not a regular file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"l3.json", "chips/matmul/manifest.json"})
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFifoInAnL3WorkDirIsRefusedWithoutBlocking(String file) throws IOException {
        Case c = newCase(HostileWorkDirs.l3(), tmp);
        Path fifo = c.wd().resolve(file);
        assumeTrue(HostileWorkDirs.mkfifo(fifo), "mkfifo is not available");

        assertRefused(run(c.exec()), file + ": is a FIFO, socket or device, not a regular file");
    }

    /** On main a 3 GiB kernel file ended in OutOfMemoryError; a sparse file makes it cheap to create. */
    @ParameterizedTest
    @ValueSource(strings = {"kernels/add_tile.pto", "manifest.json", DefaultRuntimeCfg.FILE})
    void anOversizeFileOfTheWorkDirIsRefusedNamingTheLimit(String file) throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        try (RandomAccessFile f = new RandomAccessFile(c.wd().resolve(file).toFile(), "rw")) {
            f.setLength(3L << 30);
        }

        assertRefused(run(c.exec()), file + ": is 3GiB, over the limit of 64MiB for this kind of file");
    }

    // ---- item 3 (part): declared sizes that overflow a long ---------------------------------------------------

    /** On main: "internal error: long overflow", exit 3. */
    @Test
    void aManifestShapeWhoseSizeOverflowsIsRefusedAtItsJsonField() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        Path m = c.wd().resolve("manifest.json");
        String text = Files.readString(m);
        int z = text.indexOf("\"name\" : \"z\"");
        Files.writeString(m, text.substring(0, z) + text.substring(z).replaceFirst("\\[ 128, 256 ]",
                "[ 4294967296, 4294967296 ]"));

        assertRefused(run(c.exec()), "manifest.json: at $.outputs[0].shape: shape [4294967296, 4294967296] of fp32 "
                + "needs more than 9223372036854775807 bytes");
    }

    @Test
    void anL3ShapeWhoseSizeOverflowsIsRefusedAtItsJsonField() throws IOException {
        Case c = newCase(HostileWorkDirs.l3(), tmp);
        edit(c.wd().resolve("l3.json"), "\"shape\" : [ 2, 256, 128 ]", "\"shape\" : [ 2, 4611686018427387904, 1 ]");

        assertRefused(run(c.exec()), "l3.json: at $.tensors[3].shape: shape [2, 4611686018427387904, 1] of fp32 "
                + "needs more than");
    }

    /** starts + extents used to be summed, so a start near 2^63 wrapped negative and passed the bounds check. */
    @Test
    void anL3SliceStartNearTheLongLimitIsOutsideItsTensor() throws IOException {
        Case c = newCase(HostileWorkDirs.l3(), tmp);
        Path l3 = c.wd().resolve("l3.json");
        String text = Files.readString(l3);
        Files.writeString(l3, text.replaceFirst("\"starts\" : \\[ 0, 0 ]", "\"starts\" : [ 9223372036854775807, 0 ]"));

        assertRefused(run(c.exec()), "l3.json: at $.calls[0].bindings[0]: slice [9223372036854775807, ",
                "is outside dimension 0 of host tensor a: fp32[256, 256]");
    }

    // ---- item 12 (part): integers range-checked, byte order marks ----------------------------------------------

    /** On main the int cast made 4294967298 chips into 2 and the run passed. */
    @ParameterizedTest
    @ValueSource(strings = {"4294967298", "0", "-2"})
    void l3ChipsOutsideTheIntRangeIsRefusedNotTruncated(String chips) throws IOException {
        Case c = newCase(HostileWorkDirs.l3(), tmp);
        edit(c.wd().resolve("l3.json"), "\"chips\" : 2", "\"chips\" : " + chips);

        assertRefused(run(c.exec()), "l3.json: at $.chips: expected an integer in [1, 2147483647], found " + chips);
        assertThat(c.out()).doesNotExist();
    }

    /** On main: "expected 'kernel', got ''" for the kernel, a JSON parse error for the manifest. */
    @Test
    void aUtf8ByteOrderMarkAtTheStartOfAKernelOrJsonFileIsAccepted() throws IOException {
        Case c = newCase(HostileWorkDirs.chip(), tmp);
        for (String f : List.of("kernels/add_tile.pto", "manifest.json", "orchestration.json")) {
            Path p = c.wd().resolve(f);
            Files.writeString(p, "\uFEFF" + Files.readString(p), StandardCharsets.UTF_8);
        }

        Result r = run(c.exec());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(c.out().resolve("z.npy")).isRegularFile();
    }
}
