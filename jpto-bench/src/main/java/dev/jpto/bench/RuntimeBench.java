package dev.jpto.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.Chip;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.TaskBody;
import java.lang.foreign.Arena;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Empty-kernel tasks through the whole runtime path — submit, dependency discovery (TensorMap), dispatch,
 * completion, reclamation — against ForkJoinPool + CompletableFuture running the same DAG with its edges
 * wired by hand. Score is ns per task ({@link #TASKS} tasks per invocation). Shapes: {@code independent}
 * (no edges), {@code chain} (each task INOUT on one buffer), {@code dag2} (each task reads two random
 * recent tasks' slices and writes its own: fan-in 2). Tasks are grouped in scopes of {@link #BLOCK} so
 * rings are reclaimed and reused in steady state. Arg arrays are built once in setup, so the measured
 * allocation is the runtime's own.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"})
@SuppressWarnings("try") // scopes opened for their ring
public class RuntimeBench {
    public static final int TASKS = 8192;
    public static final int BLOCK = 128;
    private static final TaskBody EMPTY = ctx -> { };
    private static final Runnable NOOP = () -> { };

    @Param({"independent", "chain", "dag2"})
    public String shape;

    private Arena arena;
    private Chip chip;
    private CallConfig config;
    private Arg[][] args;
    private int[][] parents;
    private ForkJoinPool pool;
    private Orchestration orchestration;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        chip = Chip.open(Platform.A2A3SIM, 0);
        config = CallConfig.defaults();
        int schedulers = config.aicpuThreads(Platform.A2A3SIM) - 1;
        pool = new ForkJoinPool(schedulers);
        Tensor cell = Tensor.allocate(arena, DType.INT8, 64);
        // One small buffer per task: distinct addresses spread over the TensorMap's buckets, as separate
        // tensors of a real program would (all views of one buffer share a bucket by design).
        Tensor[] slots = new Tensor[TASKS];
        for (int i = 0; i < TASKS; i++) {
            slots[i] = Tensor.allocate(arena, DType.INT8, 1);
        }
        Random rnd = new Random(42);
        args = new Arg[TASKS][];
        parents = new int[TASKS][];
        for (int i = 0; i < TASKS; i++) {
            switch (shape) {
                case "independent" -> {
                    args[i] = new Arg[0];
                    parents[i] = new int[0];
                }
                case "chain" -> {
                    args[i] = new Arg[] {Arg.inout(cell)};
                    parents[i] = i == 0 ? new int[0] : new int[] {i - 1};
                }
                case "dag2" -> {
                    if (i < 2) {
                        parents[i] = new int[0];
                        args[i] = new Arg[] {Arg.inout(slot(slots, i))};
                    } else {
                        int a = i - 1 - rnd.nextInt(Math.min(i, 32));
                        int b = i - 1 - rnd.nextInt(Math.min(i, 32));
                        parents[i] = a == b ? new int[] {a} : new int[] {a, b};
                        args[i] = new Arg[] {Arg.input(slot(slots, a)), Arg.input(slot(slots, b)),
                                Arg.inout(slot(slots, i))};
                    }
                }
                default -> throw new IllegalArgumentException("shape " + shape);
            }
        }
        orchestration = orch -> {
            for (int base = 0; base < TASKS; base += BLOCK) {
                try (Scope s = orch.scope()) {
                    for (int i = base; i < base + BLOCK; i++) {
                        orch.submit("empty", (i & 1) == 0 ? CoreType.AIV : CoreType.AIC, EMPTY, args[i]);
                    }
                }
            }
        };
    }

    private static Tensor slot(Tensor[] slots, int i) {
        return slots[i];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        chip.close();
        pool.shutdown();
        arena.close();
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long jpto() {
        return chip.run(orchestration, config).tasksExecuted();
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public Object forkJoin() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        CompletableFuture<Void>[] f = new CompletableFuture[TASKS];
        for (int i = 0; i < TASKS; i++) {
            int[] p = parents[i];
            f[i] = switch (p.length) {
                case 0 -> CompletableFuture.runAsync(NOOP, pool);
                case 1 -> f[p[0]].thenRunAsync(NOOP, pool);
                default -> f[p[0]].runAfterBothAsync(f[p[1]], NOOP, pool);
            };
        }
        return CompletableFuture.allOf(f).join();
    }
}
