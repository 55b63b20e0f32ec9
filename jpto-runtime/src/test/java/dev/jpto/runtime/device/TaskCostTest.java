package dev.jpto.runtime.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.kernel.ExecStats;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelExecutor;
import dev.jpto.isa.kernel.ScalarDecl;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.isa.kernel.TensorParam.Access;
import dev.jpto.isa.kernel.TileDecl;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Device cost of single ops and small kernels on a2a3, against figures computed by hand from the table
 * (docs/device-model.md): vector start-up 40 cycles, 256 B/cycle one-source and 128 B/cycle two-source streams,
 * 32 transcendentals and 12.8 divisions per cycle, 7 cycles per reduced row; GM->UB 58.56, UB->GM 109.38,
 * GM->L1 78.35, L0C->GM 40.63 B/cycle; 200 cycles DMA latency; 1 issue cycle per op.
 */
class TaskCostTest {
    private static final HardwareSpec A2 = HardwareSpec.of(Platform.A2A3SIM);
    private final Arena arena = Arena.ofAuto();
    private final OpCosts aiv = new OpCosts(A2, CoreType.AIV);

    private static Tile tile(DType d, int rows, int cols) {
        return Tile.allocate(d, rows, cols);
    }

    private long vectorCycles(TileOp op, Tile... tiles) {
        OpCost c = aiv.of(op, tiles, new Tensor[0], new double[0]);
        assertThat(c.pipe()).isEqualTo(Pipe.VECTOR);
        assertThat(c.latencyCycles()).isZero();
        return c.busyCycles();
    }

    @Test
    void elementwiseOpsStreamAtTheirClassRate() {
        Tile a = tile(DType.FP32, 64, 128);
        Tile b = tile(DType.FP32, 64, 128);
        // 8192 fp32: two sources at 128 B/cycle = 32 lanes -> 256 cycles + 40
        assertThat(vectorCycles(new TileOp.Binary(Fn.Binary.ADD, 0, 0, 1), a, b)).isEqualTo(296);
        // one source at 256 B/cycle = 64 lanes -> 128 + 40
        assertThat(vectorCycles(new TileOp.BinaryScalar(Fn.Binary.MUL, 0, 0, Scalar.imm(2)), a)).isEqualTo(168);
        // fp16 doubles the lanes of a stream: 64 lanes -> 128 + 40
        Tile h = tile(DType.FP16, 64, 128);
        assertThat(vectorCycles(new TileOp.Binary(Fn.Binary.ADD, 0, 0, 1), h, h)).isEqualTo(168);
        // exp: 32 per cycle whatever the dtype -> 256 + 40
        assertThat(vectorCycles(new TileOp.Unary(Fn.Unary.EXP, 0, 0), a)).isEqualTo(296);
        assertThat(vectorCycles(new TileOp.Unary(Fn.Unary.EXP, 0, 0), h)).isEqualTo(296);
        // division: 12.8 per cycle -> 640 + 40; silu = exp pass + division pass
        assertThat(vectorCycles(new TileOp.Binary(Fn.Binary.DIV, 0, 0, 1), a, b)).isEqualTo(680);
        assertThat(vectorCycles(new TileOp.Unary(Fn.Unary.SILU, 0, 0), a)).isEqualTo(296 + 680);
    }

    @Test
    void aReductionPaysPerRowOnTopOfItsStream() {
        Tile src = tile(DType.FP32, 64, 128);
        Tile dst = tile(DType.FP32, 64, 1);
        // 40 + 64 rows x 7 + 8192 / 64
        assertThat(vectorCycles(new TileOp.Reduce(Fn.Reduce.SUM, Fn.Axis.ROWS, 1, 0), src, dst)).isEqualTo(616);
        // the valid region counts, not the capacity: 16 x 100 -> 40 + 112 + ceil(1600 / 64)
        src.setValid(16, 100);
        assertThat(vectorCycles(new TileOp.Reduce(Fn.Reduce.MAX, Fn.Axis.ROWS, 1, 0), src, dst)).isEqualTo(177);
    }

    @Test
    void matmulCountsCubeFractalsPerDtype() {
        OpCosts aic = new OpCosts(A2, CoreType.AIC);
        TileOp mm = new TileOp.MatMul(2, 0, 1, false, false);
        Tensor[] none = new Tensor[0];
        // fp16 128x256 . 256x64: 8 x 4 x 16 fractals of 1 cycle + 6 head cycles
        Tile[] h = {tile(DType.FP16, 128, 256), tile(DType.FP16, 256, 64), tile(DType.FP32, 128, 64)};
        assertThat(aic.of(mm, h, none, new double[0])).isEqualTo(new OpCost(Pipe.CUBE, 518, 0, 0));
        // fp32: K in 8-wide fractals of 2 cycles: 8 x 4 x 32 x 2 + 6
        Tile[] f = {tile(DType.FP32, 128, 256), tile(DType.FP32, 256, 64), tile(DType.FP32, 128, 64)};
        assertThat(aic.of(mm, f, none, new double[0]).busyCycles()).isEqualTo(2054);
        // int8: 32-wide K: 8 x 4 x 8 + 6
        Tile[] i = {tile(DType.INT8, 128, 256), tile(DType.INT8, 256, 64), tile(DType.INT32, 128, 64)};
        assertThat(aic.of(mm, i, none, new double[0]).busyCycles()).isEqualTo(262);
        // partial fractals round up: M 100, N 60 (B transposed: N x K), K 100 -> 7 x 4 x 7 + 6
        Tile[] p = {tile(DType.BF16, 100, 100), tile(DType.BF16, 60, 100), tile(DType.FP32, 100, 60)};
        assertThat(aic.of(new TileOp.MatMul(2, 0, 1, true, false), p, none, new double[0]).busyCycles())
                .isEqualTo(202);
    }

    /** x (rows x cols, dtype) -> tile -> y: one load and one store of the same bytes. */
    private static Kernel loadStore(DType d, int rows, int cols) {
        return new Kernel("copy", List.of(new TensorParam("x", d, 2, Access.READ), new TensorParam("y", d, 2,
                Access.WRITE)), List.of(), List.of(new TileDecl("t", d, rows, cols)), List.of(
                new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.of(0)), Idx.of(rows), Idx.of(cols)),
                new TileOp.Store(0, 1, List.of(Idx.of(0), Idx.of(0)))));
    }

    @Test
    void aLoadAndAStoreOfNBytesOnAVectorCore() {
        Tensor x = Tensor.allocate(arena, DType.FP32, 64, 128);
        Tensor y = Tensor.allocate(arena, DType.FP32, 64, 128);
        KernelCostRecorder rec = new KernelCostRecorder(A2, CoreType.AIV);
        ExecStats stats = new KernelExecutor(new ScalarEngine())
                .execute(loadStore(DType.FP32, 64, 128), new Tensor[] {x, y}, new double[0], rec);
        TaskCost c = rec.finish();
        // 32768 B: load 32768 / 58.56 = 559.5 -> 560 busy, ready +200; the store waits for it:
        // issued at 1, load 1..561, ready 761; store 761..1061 (32768 / 109.38 = 299.6 -> 300), ready 1261
        assertThat(c).usingRecursiveComparison().ignoringFields("footprint")
                .isEqualTo(new TaskCost(1261, 560, 0, 0, 300, 2, 32768, 32768, 2));
        assertThat(c.gmBytesRead()).isEqualTo(stats.bytesLoaded());
        assertThat(c.gmBytesWritten()).isEqualTo(stats.bytesStored());
        assertThat(c.ops()).isEqualTo(stats.ops());
        // finish() reset the recorder: the same execution costs the same again
        new KernelExecutor(new ScalarEngine()).execute(loadStore(DType.FP32, 64, 128), new Tensor[] {x, y},
                new double[0], rec);
        assertThat(rec.finish()).isEqualTo(c);
    }

    @Test
    void aMatmulKernelOnACubeCoreChainsItsPipes() {
        Kernel k = new Kernel("mm", List.of(new TensorParam("a", DType.FP16, 2, Access.READ),
                new TensorParam("b", DType.FP16, 2, Access.READ), new TensorParam("c", DType.FP32, 2, Access.WRITE)),
                List.of(), List.of(new TileDecl("ta", DType.FP16, 128, 256), new TileDecl("tb", DType.FP16, 256, 64),
                new TileDecl("tc", DType.FP32, 128, 64)), List.of(
                new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.of(0)), Idx.of(128), Idx.of(256)),
                new TileOp.Load(1, 1, List.of(Idx.of(0), Idx.of(0)), Idx.of(256), Idx.of(64)),
                new TileOp.MatMul(2, 0, 1, false, false),
                new TileOp.Store(2, 2, List.of(Idx.of(0), Idx.of(0)))));
        Tensor a = Tensor.allocate(arena, DType.FP16, 128, 256);
        Tensor b = Tensor.allocate(arena, DType.FP16, 256, 64);
        Tensor c = Tensor.allocate(arena, DType.FP32, 128, 64);
        KernelCostRecorder rec = new KernelCostRecorder(A2, CoreType.AIC);
        new KernelExecutor(new ScalarEngine()).execute(k, new Tensor[] {a, b, c}, new double[0], rec);
        // GM->L1 at 78.35 B/cycle: A 65536 B -> 837, B 32768 B -> 419 (behind A on MTE_IN): A 1..838 ready 1038,
        // B 838..1257 ready 1457; matmul 1457..1975 (518); store 32768 B at 40.63 B/cycle -> 807: 1975..2782,
        // ready 2982
        assertThat(rec.finish()).usingRecursiveComparison().ignoringFields("footprint")
                .isEqualTo(new TaskCost(2982, 837 + 419, 518, 0, 807, 4, 98304, 32768, 4));
    }

    /** exp over 4 row blocks of x into y, with one tile pair reused or two pairs alternated (double buffering). */
    private static Kernel expRows(boolean doubleBuffered) {
        List<TileOp> body = new ArrayList<>();
        int pairs = doubleBuffered ? 2 : 1;
        for (int p = 0; p < pairs; p++) {
            Idx row = Idx.slot(0, 16, 16L * p);
            body.add(new TileOp.Load(2 * p, 0, List.of(row, Idx.of(0)), Idx.of(16), Idx.of(128)));
            body.add(new TileOp.Unary(Fn.Unary.EXP, 2 * p + 1, 2 * p));
            body.add(new TileOp.Store(2 * p + 1, 1, List.of(row, Idx.of(0))));
        }
        List<TileDecl> tiles = new ArrayList<>();
        for (int i = 0; i < 2 * pairs; i++) {
            tiles.add(new TileDecl("t" + i, DType.FP32, 16, 128));
        }
        return new Kernel("exp_rows", List.of(new TensorParam("x", DType.FP32, 2, Access.READ),
                new TensorParam("y", DType.FP32, 2, Access.WRITE)), List.of(new ScalarDecl("i", false)), tiles,
                List.of(new TileOp.Loop(0, Idx.of(0), Idx.of(4), pairs, body)));
    }

    @Test
    void reusingOneTileSerialisesTheLoopAndDoubleBufferingOverlapsIt() {
        Tensor x = Tensor.allocate(arena, DType.FP32, 64, 128);
        Tensor y = Tensor.allocate(arena, DType.FP32, 64, 128);
        KernelExecutor ex = new KernelExecutor(new ScalarEngine());
        KernelCostRecorder rec = new KernelCostRecorder(A2, CoreType.AIV);
        ex.execute(expRows(false), new Tensor[] {x, y}, new double[0], rec);
        TaskCost single = rec.finish();
        // per block: load 8192 B = 140 busy (+200), exp 40 + 2048/32 = 104, store 8192 B = 75 busy (+200).
        // Each load waits for the previous exp to stop reading the tile: a period of 140 + 200 + 104 = 444
        // cycles; the first block ends at 720 (1 + 140 + 200 + 104 + 75 + 200), the other three add 444 each.
        assertThat(single.cycles()).isEqualTo(720 + 3 * 444);
        assertThat(single.vectorBusy()).isEqualTo(4 * 104);
        ex.execute(expRows(true), new Tensor[] {x, y}, new double[0], rec);
        TaskCost twin = rec.finish();
        assertThat(twin.vectorBusy()).isEqualTo(single.vectorBusy());
        assertThat(twin.mteInBusy()).isEqualTo(single.mteInBusy());
        // the second pair's load overlaps the first pair's exp: a quarter less, still above the busiest pipe
        assertThat(twin.cycles()).isLessThan(single.cycles() * 3 / 4).isGreaterThan(4 * 140 + 200 + 104 + 75 + 200);
    }

    @Test
    void theFootprintHasTheDistinctLinesOfTheLoadsAndStores() {
        // x is 64 x 256 fp32 (1 KiB rows = 2 lines of 512 B); the kernel loads its 64 x 128 left half (512 B per
        // row: 64 lines) twice, the second time into the same tile, and stores 64 x 128 into y (64 lines)
        Tensor x = Tensor.allocate(arena, DType.FP32, 64, 256);
        Tensor y = Tensor.allocate(arena, DType.FP32, 64, 128);
        Kernel k = new Kernel("twice", List.of(new TensorParam("x", DType.FP32, 2, Access.READ),
                new TensorParam("y", DType.FP32, 2, Access.WRITE)), List.of(),
                List.of(new TileDecl("t", DType.FP32, 64, 128)), List.of(
                new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.of(0)), Idx.of(64), Idx.of(128)),
                new TileOp.Load(0, 0, List.of(Idx.of(0), Idx.of(0)), Idx.of(64), Idx.of(128)),
                new TileOp.Store(0, 1, List.of(Idx.of(0), Idx.of(0)))));
        KernelCostRecorder rec = new KernelCostRecorder(A2, CoreType.AIV);
        new KernelExecutor(new ScalarEngine()).execute(k, new Tensor[] {x, y}, new double[0], rec);
        GmFootprint f = rec.finish().footprint();
        assertThat(f.trackedReadBytes()).isEqualTo(2 * 64 * 512);
        assertThat(f.readLines()).hasSize(64).isSorted().doesNotHaveDuplicates();
        assertThat(f.readLines()[1] - f.readLines()[0]).isEqualTo(2); // every other line of x: its left halves
        assertThat(f.writtenLines()).hasSize(64);
        assertThat(rec.finish().footprint()).isSameAs(GmFootprint.NONE); // reset for the next task
    }
}
