package dev.jpto.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.TaskBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * What DFX outputs cost per task: {@link RuntimeBench}'s {@code dag2} shape (fan-in 2, empty kernels, scopes of
 * {@link RuntimeBench#BLOCK}) with one output on at a time, files written to a temporary directory at the end of
 * every run (the write is part of the cost). {@code off} is the same run with every flag off. Argument dumps
 * are left out: their cost is file I/O per tensor, not runtime bookkeeping.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"})
public class DfxBench {
    private static final int TASKS = RuntimeBench.TASKS;
    private static final TaskBody EMPTY = ctx -> { };

    @Param({"off", "pmu", "swimlane", "dep_gen"})
    public String dfx;

    private Arena arena;
    private Chip chip;
    private CallConfig config;
    private Path dir;
    private Orchestration orchestration;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        arena = Arena.ofShared();
        chip = Chip.open(Platform.A2A3SIM, 0);
        dir = Files.createTempDirectory("jpto-dfx-bench-");
        String prefix = dir.toString();
        config = switch (dfx) {
            case "off" -> CallConfig.defaults();
            case "pmu" -> new CallConfig(0, 0, 0, 2, false, false, prefix, null);
            case "swimlane" -> new CallConfig(0, 1, 0, 0, false, false, prefix, null);
            case "dep_gen" -> new CallConfig(0, 0, 0, 0, true, false, prefix, null);
            default -> throw new IllegalArgumentException("dfx " + dfx);
        };
        Tensor[] slots = new Tensor[TASKS];
        for (int i = 0; i < TASKS; i++) {
            slots[i] = Tensor.allocate(arena, DType.INT8, 1);
        }
        java.util.Random rnd = new java.util.Random(42);
        Arg[][] args = new Arg[TASKS][];
        for (int i = 0; i < TASKS; i++) {
            if (i < 2) {
                args[i] = new Arg[] {Arg.inout(slots[i])};
            } else {
                int a = i - 1 - rnd.nextInt(Math.min(i, 32));
                int b = i - 1 - rnd.nextInt(Math.min(i, 32));
                args[i] = new Arg[] {Arg.input(slots[a]), Arg.input(slots[b]), Arg.inout(slots[i])};
            }
        }
        orchestration = orch -> {
            for (int base = 0; base < TASKS; base += RuntimeBench.BLOCK) {
                try (Scope _ = orch.scope()) {
                    for (int i = base; i < base + RuntimeBench.BLOCK; i++) {
                        orch.submit("empty", (i & 1) == 0 ? CoreType.AIV : CoreType.AIC, EMPTY, args[i]);
                    }
                }
            }
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        chip.close();
        arena.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long run() {
        return chip.run(orchestration, config).tasksExecuted();
    }
}
