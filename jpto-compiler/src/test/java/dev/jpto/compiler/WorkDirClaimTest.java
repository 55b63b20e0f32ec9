package dev.jpto.compiler;

import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.L3Program;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A compile owns its work dir: nothing of an earlier program survives it, and nothing that is not jpto's goes. */
@Timeout(60)
class WorkDirClaimTest {
    @TempDir
    Path tmp;

    /** Two vector-add calls on the host: an L3 work dir with chips/vector_add and l3.json. */
    private static L3Program twoAdds() {
        L3Program.Builder l3 = L3Program.builder("two_adds").chips(1);
        HostTensor x = l3.input("x", FP32, 64, 128);
        HostTensor t = l3.scratch("t", FP32, 64, 128);
        HostTensor z = l3.output("z", FP32, 64, 128);
        l3.call("first", TestPrograms.vectorAdd(64), Map.of("x", x, "y", x, "z", t));
        l3.call("second", TestPrograms.vectorAdd(64), Map.of("x", t, "y", x, "z", z));
        return l3.build();
    }

    /** Every path under {@code root}, relative, sorted ({@code /} separated). */
    private static List<String> tree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void aChipProgramCompiledOverAnL3WorkDirIsWhatTheDirectoryHoldsAfterwards() throws IOException {
        Path d = tmp.resolve("d");
        CompiledL3Program.compile(twoAdds(), d);
        assertThat(CompiledL3Program.isL3WorkDir(d)).isTrue();

        Compiler.compile(TestPrograms.rowSoftmax(128, 64), d);
        // before, l3.json stayed and exec ran the old L3 program
        assertThat(CompiledL3Program.isL3WorkDir(d)).isFalse();
        assertThat(tree(d)).containsExactly("kernels", "kernels/row_max.pto", "kernels/softmax_apply.pto",
                "manifest.json", "orchestration.json");
        assertThat(CompiledProgram.load(d).name()).isEqualTo("row_softmax");
    }

    @Test
    void anL3ProgramCompiledOverAChipWorkDirLeavesNoKernelOrManifestOfIt() throws IOException {
        Path d = tmp.resolve("d");
        Compiler.compile(TestPrograms.rowSoftmax(128, 64), d, CompileOptions.defaults().withDumpIr(true));
        assertThat(d.resolve("ir")).isDirectory();
        Files.writeString(d.resolve(WorkDirClaim.DEFAULT_RUNTIME_CFG_FILE), "ring_heap=1GiB\n");

        CompiledL3Program.compile(twoAdds(), d);
        assertThat(tree(d)).containsExactly("chips", "chips/vector_add", "chips/vector_add/kernels",
                "chips/vector_add/kernels/add_tile.pto", "chips/vector_add/manifest.json",
                "chips/vector_add/orchestration.json", "l3.json");
        assertThat(CompiledL3Program.load(d).name()).isEqualTo("two_adds");
    }

    @Test
    void recompilingRemovesTheKernelsAndIrDumpsOfTheEarlierProgram() throws IOException {
        Path d = tmp.resolve("d");
        Compiler.compile(TestPrograms.rowSoftmax(128, 64), d, CompileOptions.defaults().withDumpIr(true));
        Compiler.compile(TestPrograms.vectorAdd(64), d);
        assertThat(tree(d)).containsExactly("kernels", "kernels/add_tile.pto", "manifest.json",
                "orchestration.json");
    }

    @Test
    void aNonEmptyDirectoryThatIsNotAWorkDirIsRefusedNamingItAndForceAndLeftAsItWas() throws IOException {
        Path home = Files.createDirectory(tmp.resolve("home"));
        Files.writeString(home.resolve("notes.txt"), "mine\n");
        Files.createDirectory(home.resolve("photos"));

        assertThatThrownBy(() -> Compiler.compile(TestPrograms.vectorAdd(64), home))
                .isInstanceOf(WorkDirException.class)
                .hasMessageStartingWith(home + ": is not empty and holds no jpto work dir")
                .hasMessageContaining("it holds notes.txt, photos").hasMessageContaining("--force");
        assertThatThrownBy(() -> WorkDirClaim.check(home, false)).isInstanceOf(WorkDirException.class);
        assertThat(tree(home)).containsExactly("notes.txt", "photos");
    }

    @Test
    void forceWritesTheWorkDirAndReplacesOnlyJptosOwnNames() throws IOException {
        Path home = Files.createDirectory(tmp.resolve("home"));
        Files.writeString(home.resolve("notes.txt"), "mine\n");
        Files.createDirectories(home.resolve("kernels"));
        Files.writeString(home.resolve("kernels/readme.md"), "also mine\n");

        Compiler.compile(TestPrograms.vectorAdd(64), home, CompileOptions.defaults().withForce(true));
        Compiler.compile(TestPrograms.rowSoftmax(128, 64), home); // now a work dir: no force needed
        assertThat(tree(home)).containsExactly("kernels", "kernels/readme.md", "kernels/row_max.pto",
                "kernels/softmax_apply.pto", "manifest.json", "notes.txt", "orchestration.json");
        assertThat(Files.readString(home.resolve("notes.txt"))).isEqualTo("mine\n");
        assertThat(CompiledProgram.load(home).name()).isEqualTo("row_softmax");
    }

    @Test
    void aCompileThatStoppedPartWayIsRedoneWithoutForce() throws IOException {
        // what a killed compile leaves: kernels and a temporary file, no manifest (it is written last)
        Path d = tmp.resolve("d");
        Files.createDirectories(d.resolve("kernels"));
        Files.writeString(d.resolve("kernels/old.pto"), "kernel old\n");
        Files.writeString(d.resolve(".manifest.json.0123456789abcdef.tmp"), "{");

        Compiler.compile(TestPrograms.vectorAdd(64), d);
        assertThat(tree(d)).containsExactly("kernels", "kernels/add_tile.pto", "manifest.json",
                "orchestration.json");
    }

    @Test
    void aLinkNamedLikeAWorkDirDirectoryIsRemovedAsALinkNotFollowed() throws IOException {
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("keep.pto"), "kernel keep\n");
        Path d = tmp.resolve("d");
        Compiler.compile(TestPrograms.vectorAdd(64), d);
        Path kernels = d.resolve("kernels");
        Files.delete(kernels.resolve("add_tile.pto"));
        Files.delete(kernels);
        Files.createSymbolicLink(kernels, elsewhere);

        Compiler.compile(TestPrograms.vectorAdd(64), d);
        assertThat(Files.isSymbolicLink(kernels)).isFalse();
        assertThat(kernels.resolve("add_tile.pto")).isRegularFile();
        assertThat(tree(elsewhere)).containsExactly("keep.pto");
    }

    @Test
    void aFileIsNotAWorkDir() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> Compiler.compile(TestPrograms.vectorAdd(64), file))
                .isInstanceOf(WorkDirException.class).hasMessage(file + ": is not a directory: a work dir is a "
                        + "directory (created if missing)");
        assertThat(Files.readString(file)).isEqualTo("x");
    }
}
