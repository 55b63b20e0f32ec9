package dev.jpto.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.engine.VectorEngine;
import dev.jpto.tools.bench.TiledMatmul;
import java.lang.foreign.Arena;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Tiled matmul per engine and input dtype, the way a kernel runs it ({@link TiledMatmul}: 128×128 tiles,
 * A/B tiles loaded per call, C accumulated over the K tiles). The vector engine computes the whole
 * {@code size³} problem per invocation; the scalar engine only the first C tile (size/128 calls). The
 * {@code flops} counter is FLOP per second: divide by 1e9 for GFLOP/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@State(Scope.Thread)
public class MatmulBench {
    @Param({"fp32", "bf16", "int8"})
    public String dtype;

    @Param({"vector", "scalar"})
    public String engine;

    @Param({"1024"})
    public int size;

    private Arena arena;
    private TiledMatmul matmul;
    private int cTiles;
    private long flopsPerInvocation;

    /** FLOP done, reported by JMH as a rate. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Flops {
        public long flops;
    }

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        DType t = DType.fromText(dtype);
        Random rnd = new Random(1);
        Tensor a = Tensor.allocate(arena, t, size, size);
        Tensor b = Tensor.allocate(arena, t, size, size);
        for (long i = 0; i < a.numel(); i++) {
            a.setDouble(i, t.isFloat() ? rnd.nextDouble() - 0.5 : rnd.nextInt(256) - 128);
            b.setDouble(i, t.isFloat() ? rnd.nextDouble() - 0.5 : rnd.nextInt(256) - 128);
        }
        Tensor c = Tensor.allocate(arena, TiledMatmul.accumulator(t), size, size);
        TileEngine e = switch (engine) {
            case "vector" -> new VectorEngine();
            case "scalar" -> new ScalarEngine();
            default -> throw new IllegalArgumentException("engine must be vector or scalar: engine=" + engine);
        };
        matmul = new TiledMatmul(e, a, b, c, 128);
        cTiles = engine.equals("vector") ? matmul.cTiles() : 1;
        flopsPerInvocation = matmul.flops(cTiles);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public void tiledMatmul(Flops counter) {
        matmul.run(cTiles);
        counter.flops += flopsPerInvocation;
    }
}
