package dev.jpto.tools.bench;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.TaskBody;
import java.lang.foreign.Arena;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * One DAG of empty-kernel tasks, run two ways: through the chip runtime, which discovers the edges itself
 * from the tensor arguments (TensorMap), and through ForkJoinPool + CompletableFuture with the same edges
 * wired by hand. Shared by {@code jpto bench runtime} and the JMH {@code RuntimeBench}, so both measure
 * the same thing. Tasks are grouped in scopes of {@code block}, so rings are reclaimed and reused.
 */
public final class RuntimeWorkload {
    /** The DAG shapes: no edges, one INOUT chain, and fan-in 2 from random recent tasks. */
    public enum Shape { INDEPENDENT, CHAIN, DAG2 }

    private static final TaskBody EMPTY = ctx -> { };
    private static final Runnable NOOP = () -> { };

    private final Shape shape;
    private final int tasks;
    private final int block;
    private final Arg[][] args;
    private final int[][] parents;
    private final Orchestration orchestration;

    /** Builds the DAG; tensors live in {@code arena}, which must outlive every run. */
    public RuntimeWorkload(Shape shape, int tasks, int block, long seed, Arena arena) {
        if (tasks < 1 || block < 1 || tasks % block != 0) {
            throw new IllegalArgumentException("tasks must be a positive multiple of block: tasks=" + tasks
                    + " block=" + block + " (try tasks=8192 block=128)");
        }
        this.shape = shape;
        this.tasks = tasks;
        this.block = block;
        this.args = new Arg[tasks][];
        this.parents = new int[tasks][];
        build(seed, arena);
        this.orchestration = this::orchestrate;
    }

    private void build(long seed, Arena arena) {
        Tensor cell = Tensor.allocate(arena, DType.INT8, 64);
        // One buffer per task: distinct addresses spread over the TensorMap's buckets like separate tensors.
        Tensor[] slots = new Tensor[tasks];
        for (int i = 0; i < tasks; i++) {
            slots[i] = Tensor.allocate(arena, DType.INT8, 1);
        }
        Random rnd = new Random(seed);
        for (int i = 0; i < tasks; i++) {
            switch (shape) {
                case INDEPENDENT -> {
                    args[i] = new Arg[0];
                    parents[i] = new int[0];
                }
                case CHAIN -> {
                    args[i] = new Arg[] {Arg.inout(cell)};
                    parents[i] = i == 0 ? new int[0] : new int[] {i - 1};
                }
                case DAG2 -> {
                    if (i < 2) {
                        parents[i] = new int[0];
                        args[i] = new Arg[] {Arg.inout(slots[i])};
                    } else {
                        int a = i - 1 - rnd.nextInt(Math.min(i, 32));
                        int b = i - 1 - rnd.nextInt(Math.min(i, 32));
                        parents[i] = a == b ? new int[] {a} : new int[] {a, b};
                        args[i] = new Arg[] {Arg.input(slots[a]), Arg.input(slots[b]), Arg.inout(slots[i])};
                    }
                }
            }
        }
    }

    @SuppressWarnings("try") // scopes are opened for their ring, not their variable
    private void orchestrate(dev.jpto.runtime.Orchestrator orch) {
        for (int base = 0; base < tasks; base += block) {
            try (Scope s = orch.scope()) {
                for (int i = base; i < base + block; i++) {
                    orch.submit("empty", (i & 1) == 0 ? CoreType.AIV : CoreType.AIC, EMPTY, args[i]);
                }
            }
        }
    }

    public Shape shape() {
        return shape;
    }

    public int tasks() {
        return tasks;
    }

    /** The orchestration the chip runs (built once; running it allocates no Arg arrays). */
    public Orchestration orchestration() {
        return orchestration;
    }

    /** Runs the same DAG on {@code pool} with hand-wired CompletableFuture edges; returns when all are done. */
    public void runForkJoin(ForkJoinPool pool) {
        startForkJoin(pool).join();
    }

    /** Builds and starts the ForkJoin DAG; the returned future completes when every task ran. */
    public CompletableFuture<Void> startForkJoin(ForkJoinPool pool) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        CompletableFuture<Void>[] f = new CompletableFuture[tasks];
        for (int i = 0; i < tasks; i++) {
            int[] p = parents[i];
            f[i] = switch (p.length) {
                case 0 -> CompletableFuture.runAsync(NOOP, pool);
                case 1 -> f[p[0]].thenRunAsync(NOOP, pool);
                default -> f[p[0]].runAfterBothAsync(f[p[1]], NOOP, pool);
            };
        }
        return CompletableFuture.allOf(f);
    }
}
