package dev.jpto.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.engine.VectorEngine;
import dev.jpto.isa.op.Fn;
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
 * One elementwise tile op on cache-resident {@code tile × tile} tiles: {@code add} (tile + tile), {@code adds}
 * (tile + scalar), {@code relu} and {@code exp}. The {@code elements} counter is elements per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@State(Scope.Thread)
public class ElementwiseBench {
    @Param({"fp32", "bf16"})
    public String dtype;

    @Param({"vector", "scalar"})
    public String engine;

    @Param({"add", "adds", "relu", "exp"})
    public String op;

    @Param({"128"})
    public int tile;

    private TileEngine e;
    private Tile a;
    private Tile b;
    private Tile d;

    /** Elements computed, reported by JMH as a rate. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Elements {
        public long elements;
    }

    @Setup
    public void setUp() {
        DType t = DType.fromText(dtype);
        Random rnd = new Random(1);
        a = Tile.allocate(t, tile, tile);
        b = Tile.allocate(t, tile, tile);
        d = Tile.allocate(t, tile, tile);
        for (int r = 0; r < tile; r++) {
            for (int col = 0; col < tile; col++) {
                a.setFloat(r, col, rnd.nextFloat() - 0.5f);
                b.setFloat(r, col, rnd.nextFloat() - 0.5f);
            }
        }
        e = engine.equals("vector") ? new VectorEngine() : new ScalarEngine();
        if (!op.equals("add") && !op.equals("adds") && !op.equals("relu") && !op.equals("exp")) {
            throw new IllegalArgumentException("op must be add, adds, relu or exp: op=" + op);
        }
    }

    @Benchmark
    public Tile run(Elements counter) {
        switch (op) {
            case "add" -> e.binary(Fn.Binary.ADD, d, a, b);
            case "adds" -> e.binaryScalar(Fn.Binary.ADD, d, a, 0.5);
            case "relu" -> e.unary(Fn.Unary.RELU, d, a);
            default -> e.unary(Fn.Unary.EXP, d, a);
        }
        counter.elements += (long) tile * tile;
        return d;
    }
}
