package dev.jpto.bench;

import dev.jpto.tools.bench.RuntimeWorkload;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.Platform;
import java.lang.foreign.Arena;
import java.util.Locale;
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
 * wired by hand ({@link RuntimeWorkload}, shared with {@code jpto bench runtime}). Score is ns per task.
 * Arg arrays are built once in setup, so {@code -prof gc} measures the runtime's own allocation.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"})
public class RuntimeBench {
    public static final int TASKS = 8192;
    public static final int BLOCK = 128;

    @Param({"independent", "chain", "dag2"})
    public String shape;

    private Arena arena;
    private Chip chip;
    private CallConfig config;
    private ForkJoinPool pool;
    private RuntimeWorkload workload;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        chip = Chip.open(Platform.A2A3SIM, 0);
        config = CallConfig.defaults();
        pool = new ForkJoinPool(config.aicpuThreads(Platform.A2A3SIM) - 1);
        RuntimeWorkload.Shape s = RuntimeWorkload.Shape.valueOf(shape.toUpperCase(Locale.ROOT));
        workload = new RuntimeWorkload(s, TASKS, BLOCK, 42, arena);
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
        return chip.run(workload.orchestration(), config).tasksExecuted();
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public void forkJoin() {
        workload.runForkJoin(pool);
    }
}
