package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP16;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.BufferUse;
import dev.jpto.runtime.device.HardwareSpec;
import dev.jpto.runtime.device.KernelPlacement;
import dev.jpto.runtime.device.OnChipBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile-time on-chip memory check: one tile too big for each buffer kind, with the bytes of the message
 * computed by hand from the buffer sizes (a2a3sim: UB 192 KiB, L1 512 KiB, L0A/L0B 64 KiB, L0C 128 KiB; a5sim:
 * UB 256 KiB, L0C 256 KiB) and the padding rules (rows of 32 bytes in UB and L1, whole 16 x 32-byte fractals in
 * L0).
 */
class OnChipMemoryTest {
    @TempDir
    Path tmp;

    /** A vector kernel adding two loaded tiles of {@code rows x cols}. */
    private static Kernel vectorAdd(int rows, int cols) {
        KernelBuilder k = KernelBuilder.kernel("add_tile");
        KTensor x = k.input("x", FP32, 2);
        KTensor z = k.output("z", FP32, 2);
        KTile a = k.tile("a", FP32, rows, cols);
        KTile b = k.tile("b", FP32, rows, cols);
        k.load(a, x, 0, 0).load(b, x, 0, 0).add(a, a, b).store(a, z, 0, 0);
        return k.build();
    }

    /** A cube kernel: c (fp32 m x n) = a (fp16 m x kk) · b (fp16 kk x n), plus a loaded tile {@code extra}. */
    private static Kernel matmul(int m, int kk, int n, int extraRows) {
        KernelBuilder k = KernelBuilder.kernel("mm");
        KTensor x = k.input("x", FP16, 2);
        KTensor z = k.output("z", FP32, 2);
        KTile a = k.tile("a", FP16, m, kk);
        KTile b = k.tile("b", FP16, kk, n);
        KTile c = k.tile("c", FP32, m, n);
        k.load(a, x, 0, 0).load(b, x, 0, 0).matmul(c, a, b).store(c, z, 0, 0);
        if (extraRows > 0) {
            KTensor e = k.output("e", FP16, 2);
            KTile extra = k.tile("extra", FP16, extraRows, 512);
            k.load(extra, x, 0, 0).store(extra, e, 0, 0);
        }
        return k.build();
    }

    private static Program program(Kernel kernel) {
        return new Program("p", List.of(), List.of(), List.of(kernel), List.of());
    }

    /** The refusal without the tiles' declaration sites (checked on their own below). */
    private static String refusal(Kernel kernel, Platform platform) {
        return catchThrowableOfType(OnChipMemoryException.class,
                () -> OnChipMemory.check(program(kernel), platform, Set.of())).getMessage()
                .replaceAll(" \\(OnChipMemoryTest\\.java:\\d+\\)", "");
    }

    @Test
    void theRefusalNamesTheSourceLineOfEachTileDeclaration() {
        KernelBuilder k = KernelBuilder.kernel("add_tile");
        KTensor x = k.input("x", FP32, 2);
        KTensor z = k.output("z", FP32, 2);
        int line = StackWalker.getInstance().walk(f -> f.findFirst().orElseThrow()).getLineNumber() + 1;
        KTile a = k.tile("a", FP32, 256, 256);
        KTile b = k.tile("b", FP32, 256, 256);
        k.load(a, x, 0, 0).load(b, x, 0, 0).add(a, a, b).store(a, z, 0, 0);
        String message = catchThrowableOfType(OnChipMemoryException.class,
                () -> OnChipMemory.check(program(k.build()), Platform.A5SIM, Set.of())).getMessage();
        assertThat(message).endsWith("kernel add_tile (aiv): UB needs 524288 B, has 262144 B (256 KiB): tiles "
                + "a fp32[256x256] 262144 B (OnChipMemoryTest.java:" + line + "), b fp32[256x256] 262144 B "
                + "(OnChipMemoryTest.java:" + (line + 1) + ")");
    }

    @Test
    void aVectorTileTooBigForTheUnifiedBufferIsRefusedNamingKernelBufferBytesAndTiles() {
        // 2 x 256 x 128 x 4 B = 262144 B > 192 KiB on a2a3sim; it fits a5sim's 256 KiB exactly
        assertThat(refusal(vectorAdd(256, 128), Platform.A2A3SIM)).isEqualTo("program p does not fit the on-chip "
                + "buffers of a2a3sim (1 finding(s)); use smaller tiles, or loop over a smaller tile, as a device "
                + "kernel does:\n  kernel add_tile (aiv): UB needs 262144 B, has 196608 B (192 KiB): tiles "
                + "a fp32[256x128] 131072 B, b fp32[256x128] 131072 B");
        assertThatCode(() -> OnChipMemory.check(program(vectorAdd(256, 128)), Platform.A5SIM, Set.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void aLoadedCubeTileTooBigForL1IsRefused() {
        // a 8 KiB + b 8 KiB + extra 512 x 512 x 2 B = 512 KiB: 540672 B > 524288 B
        String message = refusal(matmul(16, 256, 16, 512), Platform.A2A3SIM);
        assertThat(message).contains("kernel mm (aic): L1 needs 540672 B, has 524288 B (512 KiB): tiles "
                + "a fp16[16x256] 8192 B, b fp16[256x16] 8192 B, extra fp16[512x512] 524288 B").doesNotContain("L0");
    }

    @Test
    void aLeftOperandTooBigForL0aIsRefused() {
        // a = 128 x 512 fp16 = 131072 B > 64 KiB; b = 512 x 16 fp16 = 16 KiB; c = 128 x 16 fp32 = 8 KiB
        assertThat(refusal(matmul(128, 512, 16, 0), Platform.A2A3SIM)).endsWith("kernel mm (aic): L0A needs "
                + "131072 B (its largest operand), has 65536 B (64 KiB): tiles a fp16[128x512] 131072 B");
    }

    @Test
    void aRightOperandTooBigForL0bIsRefused() {
        assertThat(refusal(matmul(16, 512, 128, 0), Platform.A2A3SIM)).endsWith("kernel mm (aic): L0B needs "
                + "131072 B (its largest operand), has 65536 B (64 KiB): tiles b fp16[512x128] 131072 B");
    }

    @Test
    void anAccumulatorTooBigForL0cIsRefusedOnA2a3AndFitsA5() {
        // c = 256 x 256 fp32 = 262144 B > 128 KiB (a2a3sim), = 256 KiB (a5sim)
        assertThat(refusal(matmul(256, 16, 256, 0), Platform.A2A3SIM)).endsWith("kernel mm (aic): L0C needs "
                + "262144 B, has 131072 B (128 KiB): tiles c fp32[256x256] 262144 B");
        assertThatCode(() -> OnChipMemory.check(program(matmul(256, 16, 256, 0)), Platform.A5SIM, Set.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void tilesArePaddedToTheBuffersBlocksAndFractals() {
        KernelBuilder k = KernelBuilder.kernel("gemv");
        KTensor x = k.input("x", FP32, 2);
        KTensor z = k.output("z", FP32, 2);
        KTile a = k.tile("a", FP32, 1, 8);
        KTile b = k.tile("b", FP32, 8, 3);
        KTile c = k.tile("c", FP32, 1, 3);
        k.load(a, x, 0, 0).load(b, x, 0, 0).matmul(c, a, b).store(c, z, 0, 0);
        KernelPlacement p = KernelPlacement.of(k.build(), HardwareSpec.of(Platform.A2A3SIM));
        assertThat(p.core()).isEqualTo(CoreType.AIC);
        assertThat(bytesByBuffer(p)).containsExactly(
                32L + 8 * 32,    // L1: a is one 32-byte row, b 8 rows of 12 B padded to 32
                16L * 8 * 4,     // L0A: a padded to 16 rows x 8 fp32 (32 bytes of K)
                8L * 16 * 4,     // L0B: b padded to 8 (K) x 16 columns
                16L * 16 * 4);   // L0C: c padded to one 16 x 16 fractal
        KernelPlacement v = KernelPlacement.of(vectorRowMax(), HardwareSpec.of(Platform.A5SIM));
        assertThat(bytesByBuffer(v)).containsExactly(64L * 64 * 4 + 64 * 32); // the 64x1 column: 32 B a row
    }

    private static Kernel vectorRowMax() {
        KernelBuilder k = KernelBuilder.kernel("row_max");
        KTensor x = k.input("x", FP32, 2);
        KTensor z = k.output("z", FP32, 2);
        KTile t = k.tile("t", FP32, 64, 64);
        KTile m = k.tile("m", FP32, 64, 1);
        k.load(t, x, 0, 0).rowMax(m, t).store(m, z, 0, 0);
        return k.build();
    }

    private static List<Long> bytesByBuffer(KernelPlacement p) {
        return p.buffers().stream().map(BufferUse::bytes).toList();
    }

    @Test
    void anExemptKernelIsNotCheckedAndTheOthersStillAre() {
        Kernel big = vectorAdd(256, 256);
        assertThatCode(() -> OnChipMemory.check(program(big), Platform.A2A3SIM, Set.of("add_tile")))
                .doesNotThrowAnyException();
        assertThat(catchThrowableOfType(OnChipMemoryException.class, () -> OnChipMemory.check(program(big),
                Platform.A2A3SIM, Set.of("other"))).getMessage()).contains("kernel add_tile (aiv): UB needs");
    }

    @Test
    void compilingAProgramThatDoesNotFitWritesNoWorkDir() {
        Path dir = tmp.resolve("wd");
        Program p = TestPrograms.vectorAdd(128);
        assertThatCode(() -> Compiler.compile(p, dir)).doesNotThrowAnyException();
        ProgramBuilder pb = ProgramBuilder.program("big");
        TensorVar x = pb.input("x", FP32, 512, 128);
        TensorVar z = pb.output("z", FP32, 512, 128);
        KernelRef add = pb.aiv(vectorAdd(512, 128));
        pb.orchestrate(o -> o.submit(add, in(x), outExisting(z)));
        Program big = pb.build();
        Path bigDir = tmp.resolve("big");
        assertThat(catchThrowableOfType(OnChipMemoryException.class, () -> Compiler.compile(big, bigDir,
                CompileOptions.defaults().withPlatform(Platform.A5SIM))).getMessage())
                .contains("of a5sim", "UB needs 524288 B, has 262144 B (256 KiB)");
        assertThat(bigDir.resolve("manifest.json")).doesNotExist();
    }

    @Test
    void theMemoryMapListsEveryBufferOfTheKernelsCoreAndMarksAnOverflow() {
        String map = OnChipMemory.map(OnChipMemory.place(program(matmul(256, 16, 256, 0)), Platform.A2A3SIM),
                Platform.A2A3SIM);
        assertThat(map.lines().toList()).hasSize(6);
        assertThat(map).contains("[MEM] kernel mm (aic)", "L0C    262144 /  131072 B  200% DOES NOT FIT  "
                + "c fp32[256x256] 262144 B").doesNotContain("UB ");
        assertThat(Set.of(OnChipBuffer.values())).allMatch(b -> map.contains(b.text()) || b == OnChipBuffer.UB);
        assertThat(DType.FP16.byteSize()).isEqualTo(2);
    }
}
