package dev.jpto.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.engine.VectorEngine;
import dev.jpto.tools.bench.TiledMatmul;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code C += A·B} call (or {@code C += A·Bᵀ}, the Q·Kᵀ shape of attention, with {@code transposeB}) on
 * cache-resident tiles (no loads): the matmul op alone, packing included. The {@code flops} counter is FLOP per
 * second (int8 → int32 multiply-adds count 2 ops each, as FLOPs do).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@State(Scope.Thread)
public class TileMatmulBench {
    @Param({"fp32", "bf16", "int8"})
    public String dtype;

    @Param({"vector", "scalar"})
    public String engine;

    @Param({"128"})
    public int tile;

    @Param({"false", "true"})
    public boolean transposeB;

    private TileEngine e;
    private Tile a;
    private Tile b;
    private Tile c;
    private long flopsPerCall;

    /** FLOP done, reported by JMH as a rate. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Flops {
        public long flops;
    }

    @Setup
    public void setUp() {
        DType t = DType.fromText(dtype);
        Random rnd = new Random(1);
        a = Tile.allocate(t, tile, tile);
        b = Tile.allocate(t, tile, tile);
        c = Tile.allocate(TiledMatmul.accumulator(t), tile, tile);
        for (int r = 0; r < tile; r++) {
            for (int col = 0; col < tile; col++) {
                if (t.isFloat()) {
                    a.setFloat(r, col, rnd.nextFloat() - 0.5f);
                    b.setFloat(r, col, rnd.nextFloat() - 0.5f);
                } else {
                    a.setLong(r, col, rnd.nextInt(256) - 128);
                    b.setLong(r, col, rnd.nextInt(256) - 128);
                }
            }
        }
        e = engine.equals("vector") ? new VectorEngine() : new ScalarEngine();
        flopsPerCall = 2L * tile * tile * tile;
    }

    @Benchmark
    public Tile matmulAccumulate(Flops counter) {
        e.matmul(c, a, b, transposeB, true);
        counter.flops += flopsPerCall;
        return c;
    }
}
