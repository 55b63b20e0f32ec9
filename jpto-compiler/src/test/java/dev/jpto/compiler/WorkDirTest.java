package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.workdir.ManifestDescriptor;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** compile → load → run equals the in-memory run; every way of corrupting a work dir has its own clear error. */
@Timeout(60)
class WorkDirTest {
    @TempDir
    Path tmp;
    Path wd;

    @BeforeEach
    void compileSoftmax() {
        wd = tmp.resolve("wd");
        Compiler.compile(TestPrograms.rowSoftmax(128, 64), wd);
    }

    @Test
    void writesTheDocumentedLayout() throws IOException {
        assertThat(wd.resolve("manifest.json")).isRegularFile();
        assertThat(wd.resolve("orchestration.json")).isRegularFile();
        assertThat(wd.resolve("kernels/row_max.pto")).isRegularFile();
        assertThat(wd.resolve("kernels/softmax_apply.pto")).isRegularFile();
        String manifest = Files.readString(wd.resolve("manifest.json"));
        assertThat(manifest).contains("\"format\" : \"jpto-workdir\"", "\"format_version\" : 1",
                "\"program\" : \"row_softmax\"", "\"file\" : \"kernels/row_max.pto\"",
                "\"orchestration\" : \"orchestration.json\"", "\"passes\" : \"verify,drop-empty-blocks,verify-again\"");
        assertThat(Files.readString(wd.resolve("orchestration.json"))).contains("\"for\" : \"i\"", "\"alloc\" : \"m\"",
                "\"output\" : \"m\"");
    }

    @Test
    void roundTripRunsLikeTheInMemoryProgram() {
        for (var program : new dev.jpto.compiler.ir.Program[] {TestPrograms.vectorAdd(128),
                TestPrograms.matmul(128, 128, 64), TestPrograms.rowSoftmax(128, 64), TestPrograms.prefixBlocks(0.25)}) {
            Path dir = tmp.resolve("rt-" + program.name());
            Compiler.compile(program, dir);
            CompiledProgram loaded = CompiledProgram.load(dir);
            assertThat(loaded.program()).isEqualTo(Compiler.compileInMemory(program).program());
            assertThat(loaded.workDir()).contains(dir.toAbsolutePath().normalize());
            try (Arena arena = Arena.ofShared()) {
                Map<String, Tensor> a = args(arena, program, 11);
                Map<String, Tensor> b = args(arena, program, 11);
                Runner.run(Compiler.compileInMemory(program), a);
                Runner.executeCompiled(dir, b);
                for (var out : program.outputs()) {
                    assertThat(b.get(out.name()).toDoubleArray()).as(program.name() + " " + out.name())
                            .containsExactly(a.get(out.name()).toDoubleArray());
                }
            }
        }
    }

    private static Map<String, Tensor> args(Arena arena, dev.jpto.compiler.ir.Program p, long seed) {
        var m = new java.util.HashMap<String, Tensor>();
        long s = seed;
        for (var d : p.inputs()) {
            m.put(d.name(), Tensors.random(arena, s++, d.shape()[0], d.shape()[1]));
        }
        for (var d : p.outputs()) {
            m.put(d.name(), Tensor.allocate(arena, DType.FP32, d.shape()));
        }
        return m;
    }

    @Test
    void dumpIrWritesOneFilePerPass() throws IOException {
        Path dir = tmp.resolve("dump");
        Compiler.compile(TestPrograms.vectorAdd(128), dir, CompileOptions.defaults().withDumpIr(true));
        assertThat(dir.resolve("ir/01-verify.ir")).isRegularFile();
        assertThat(dir.resolve("ir/02-drop-empty-blocks.ir")).isRegularFile();
        assertThat(dir.resolve("ir/03-verify-again.ir")).isRegularFile();
        assertThat(Files.readString(dir.resolve("ir/01-verify.ir")))
                .contains("program vector_add", "for i in range(0, 2)", "submit add_tile on aiv(input x[64*i +: 64");
    }

    // ---- corruption: each gives a WorkDirException naming the file and what was expected ----

    private void edit(String file, String from, String to) throws IOException {
        Path f = wd.resolve(file);
        String text = Files.readString(f);
        assertThat(text).contains(from);
        Files.writeString(f, text.replace(from, to));
    }

    private org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> loading() {
        return assertThatThrownBy(() -> CompiledProgram.load(wd)).isInstanceOf(WorkDirException.class);
    }

    @Test
    void missingDirectoryOrManifest() throws IOException {
        assertThatThrownBy(() -> CompiledProgram.load(tmp.resolve("nope"))).isInstanceOf(WorkDirException.class)
                .hasMessageContaining("nope: does not exist: expected a work dir written by jpto compile");
        Files.delete(wd.resolve("manifest.json"));
        loading().hasMessageContaining("manifest.json: is missing: expected the work dir's manifest");
    }

    @Test
    void manifestThatIsNotJson() throws IOException {
        Files.writeString(wd.resolve("manifest.json"), "{\"format\": \"jpto-workdir\", ");
        loading().hasMessageContaining("manifest.json: is not valid JSON at line 1");
        Files.writeString(wd.resolve("manifest.json"), "");
        loading().hasMessageContaining("manifest.json: is empty");
        Files.write(wd.resolve("manifest.json"), new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        loading().hasMessageContaining("manifest.json: is not UTF-8 text");
    }

    @Test
    void wrongFormatOrVersion() throws IOException {
        edit("manifest.json", "\"format_version\" : 1", "\"format_version\" : 2");
        loading().hasMessageContaining("manifest.json: at $.format_version: format_version 2 is not supported: "
                + "this jpto reads format_version 1; recompile the program with this jpto");
        edit("manifest.json", "\"jpto-workdir\"", "\"npy\"");
        loading().hasMessageContaining("at $.format: expected \"jpto-workdir\", found \"npy\"");
    }

    @Test
    void missingOrMistypedManifestFields() throws IOException {
        edit("manifest.json", "\"orchestration\" :", "\"orchestra\" :");
        loading().hasMessageContaining("manifest.json: at $: unexpected field 'orchestra'");
        compileSoftmax();
        edit("manifest.json", "\"shape\" : [ 128, 64 ]", "\"shape\" : \"128x64\"");
        loading().hasMessageContaining("at $.inputs[0].shape: expected an array, found string \"128x64\"");
    }

    @Test
    void pathsThatLeaveTheWorkDirAreRejected() throws IOException {
        edit("manifest.json", "\"kernels/row_max.pto\"", "\"../row_max.pto\"");
        loading().hasMessageContaining("at $.kernels[0].file: path '../row_max.pto' resolves to")
                .hasMessageContaining("outside the work dir").hasMessageContaining("a work dir is data");
        compileSoftmax();
        edit("manifest.json", "\"orchestration.json\"", "\"/etc/passwd\"");
        loading().hasMessageContaining("at $.orchestration: path '/etc/passwd'");
        compileSoftmax();
        Path outside = tmp.resolve("elsewhere.pto");
        Files.copy(wd.resolve("kernels/row_max.pto"), outside);
        Files.delete(wd.resolve("kernels/row_max.pto"));
        Files.createSymbolicLink(wd.resolve("kernels/row_max.pto"), outside);
        loading().hasMessageContaining("at $.kernels[0].file: path 'kernels/row_max.pto' is a link to");
    }

    @Test
    void missingOrCorruptKernel() throws IOException {
        Files.delete(wd.resolve("kernels/softmax_apply.pto"));
        loading().hasMessageContaining("softmax_apply.pto: is missing: expected kernel 'softmax_apply' listed in "
                + "manifest.json");
        compileSoftmax();
        Files.writeString(wd.resolve("kernels/softmax_apply.pto"), "kernel softmax_apply(\n garbage");
        loading().hasMessageContaining("softmax_apply.pto: is not a valid kernel in the ISA text format");
        compileSoftmax();
        Files.copy(wd.resolve("kernels/row_max.pto"), wd.resolve("kernels/softmax_apply.pto"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        loading().hasMessageContaining("softmax_apply.pto: holds kernel 'row_max' but manifest.json lists it as "
                + "kernel 'softmax_apply'");
    }

    @Test
    void missingCorruptOrInconsistentOrchestration() throws IOException {
        Files.delete(wd.resolve("orchestration.json"));
        loading().hasMessageContaining("orchestration.json: is missing: expected the orchestration named in "
                + "manifest.json");
        compileSoftmax();
        edit("orchestration.json", "\"step\" : 1", "\"step\" : 0");
        loading().hasMessageContaining("orchestration.json: at $.body[0].step: loop step must be positive");
        compileSoftmax();
        edit("orchestration.json", "\"program\" : \"row_softmax\"", "\"program\" : \"other\"");
        loading().hasMessageContaining("orchestration.json: at $.program: expected \"row_softmax\"");
        compileSoftmax();
        edit("orchestration.json", "\"submit\" : \"row_max\"", "\"submit\" : \"row_min\"");
        loading().hasMessageContaining("orchestration.json: the program described by manifest.json and this file "
                + "does not verify")
                .hasMessageContaining("kernel 'row_min' is not declared in the program");
        compileSoftmax();
        edit("manifest.json", "\"shape\" : [ 128, 64 ]", "\"shape\" : [ 64, 64 ]");
        loading().hasMessageContaining("does not verify").hasMessageContaining("slice start '64*i' in dimension 0");
    }

    @Test
    void theManifestNamesOnlyFilesItsDescriptorDefines() {
        assertThat(ManifestDescriptor.kernelFile("k")).isEqualTo("kernels/k.pto");
    }
}
