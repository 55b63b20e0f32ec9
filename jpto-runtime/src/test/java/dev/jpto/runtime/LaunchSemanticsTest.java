package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.orch.OrchestratorImpl;
import dev.jpto.runtime.ring.Ring;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Manual scopes, explicit dependencies, SPMD and mixed tasks, alloc_tensors and orchestration-time writes; and the
 * codes they raise (5 and 7) with their names and numbers.
 */
@Timeout(60)
@SuppressWarnings("try") // scopes opened only for their kind
class LaunchSemanticsTest {
    private Chip chip;
    private Arena arena;

    @BeforeEach
    void open() {
        chip = Chip.open(Platform.A2A3SIM, 0, ChipOptions.defaults().withSchedulerTimeout(Duration.ofSeconds(5)));
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() {
        chip.close();
        arena.close();
    }

    private static final TaskBody NOOP = ctx -> { };

    private ChipRuntimeException runFailing(Orchestration o) {
        try {
            chip.run(o, CallConfig.defaults());
        } catch (ChipRuntimeException e) {
            return e;
        }
        throw new AssertionError("run did not fail");
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("latch not released within 10 s");
        }
    }

    @Test
    void manualScopeWiresNoTensorMapEdge() {
        // In an auto scope the reader would wait for the writer, which waits for the reader: the run would stall.
        Tensor buf = Tensor.allocate(arena, DType.INT32, 4);
        CountDownLatch readerRan = new CountDownLatch(1);
        RunReport rep = chip.run(orch -> {
            try (Scope m = orch.manualScope()) {
                assertThat(orch.scopeKind()).isEqualTo(ScopeKind.MANUAL);
                orch.submit("writer", CoreType.AIV, ctx -> await(readerRan), Arg.inout(buf));
                orch.submit("reader", CoreType.AIV, ctx -> readerRan.countDown(), Arg.input(buf));
            }
            assertThat(orch.scopeKind()).isEqualTo(ScopeKind.AUTO);
        }, CallConfig.defaults().withAicpuThreadNum(3));
        assertThat(rep.tasksExecuted()).isEqualTo(2);
    }

    @Test
    void explicitDependenciesOrderTasksInAManualScope() {
        Tensor acc = Tensor.allocate(arena, DType.INT64, 1);
        int n = 40;
        chip.run(orch -> {
            try (Scope m = orch.manualScope()) {
                long prev = -1;
                for (int i = 0; i < n; i++) {
                    final int k = i;
                    Launch launch = prev < 0 ? Launch.SINGLE : Launch.after(prev);
                    // acc = acc * 3 + k: wrong in any other order
                    prev = orch.submit(launch, "step", i % 2 == 0 ? CoreType.AIC : CoreType.AIV, ctx -> {
                        Tensor t = ctx.tensor(0);
                        t.setDouble(0, (t.getDouble(0) * 3 + k) % 1_000_003);
                    }, Arg.inout(acc));
                }
            }
        }, CallConfig.defaults());
        long expected = 0;
        for (int i = 0; i < n; i++) {
            expected = (expected * 3 + i) % 1_000_003;
        }
        assertThat(acc.getDouble(0)).isEqualTo(expected);
    }

    @Test
    void autoScopeInsideManualScopeIsCode5() {
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope m = orch.manualScope(); Scope a = orch.scope()) {
                orch.submit("t", CoreType.AIV, NOOP);
            }
        });
        assertThat(e.error()).isEqualTo(ErrorCode.INVALID_ARGS);
        assertThat(e.orchErrorCode()).isEqualTo(5);
        assertThat(e.getMessage()).startsWith("orch_error_code=5 INVALID_ARGS - auto scope nested inside manual scope"
                + " is not supported: a scope() was opened at depth 2 inside the manual scope at depth 1");
    }

    @Test
    void dependencyOnATaskNotYetSubmittedIsCode5() {
        ChipRuntimeException e = runFailing(orch -> {
            long a = orch.submit("a", CoreType.AIV, NOOP);
            orch.submit(Launch.after(a, a + 1), "b", CoreType.AIV, NOOP);
        });
        assertThat(e.error()).isEqualTo(ErrorCode.INVALID_ARGS);
        assertThat(e.getMessage()).contains("Arg.set_dependencies(...) requires valid task ids: task 0x0000000000000001"
                + " (ring 0, local 1) kernel 'b' names dependency 1 = 0x0000000000000001 (ring 0, local 1), which"
                + " is not the id of a task submitted earlier in this run");
        ChipRuntimeException ring = runFailing(orch -> orch.submit(Launch.after(Ring.taskId(7, 0)), "c", CoreType.AIC,
                NOOP));
        assertThat(ring.getMessage()).contains("kernel 'c' names dependency " + (7L << 32));
        ChipRuntimeException negative = runFailing(orch -> orch.submit(Launch.after(-1), "d", CoreType.AIC, NOOP));
        assertThat(negative.getMessage()).contains("kernel 'd' names dependency -1");
    }

    @Test
    void syncStartBeyondTheCoresThatStartTogetherIsCode7() {
        ChipRuntimeException aiv = runFailing(orch -> orch.submit(Launch.blocks(49).syncStart(), "v", CoreType.AIV,
                NOOP));
        assertThat(aiv.error()).isEqualTo(ErrorCode.REQUIRE_SYNC_START_INVALID);
        assertThat(aiv.orchErrorCode()).isEqualTo(7);
        assertThat(aiv.getMessage()).startsWith("orch_error_code=7 REQUIRE_SYNC_START_INVALID - require_sync_start "
                + "block_num=49 > limit=48 (deadlock guaranteed): task 0x0000000000000000 (ring 0, local 0) kernel 'v' "
                + "(AIV) on "
                + "a2a3sim, which has 48 vector cores");
        ChipRuntimeException aic = runFailing(orch -> orch.submit(Launch.blocks(25).syncStart(), "c", CoreType.AIC,
                NOOP));
        assertThat(aic.getMessage()).contains("block_num=25 > limit=24").contains("24 clusters");
        ChipRuntimeException mix = runFailing(orch -> orch.submitMixed(Launch.blocks(25).syncStart(),
                new MixedKernels("m", NOOP, NOOP, null)));
        assertThat(mix.getMessage()).contains("block_num=25 > limit=24").contains("(mixed)");
        // at the limit it runs
        RunReport ok = chip.run(orch -> orch.submit(Launch.blocks(48).syncStart(), "v", CoreType.AIV, NOOP),
                CallConfig.defaults());
        assertThat(ok.tasksExecuted()).isEqualTo(1);
    }

    @Test
    void spmdTaskRunsEveryBlockOnceAndCompletesAfterTheLast() {
        int blocks = 100;
        Tensor out = Tensor.allocate(arena, DType.INT32, blocks);
        Tensor sum = Tensor.allocate(arena, DType.INT64, 1);
        AtomicIntegerArray runs = new AtomicIntegerArray(blocks);
        ConcurrentLinkedQueue<Integer> cores = new ConcurrentLinkedQueue<>();
        RunReport rep = chip.run(orch -> {
            orch.submit(Launch.blocks(blocks), "spmd", CoreType.AIV, ctx -> {
                assertThat(ctx.blockNum()).isEqualTo(blocks);
                int b = ctx.blockIndex();
                runs.incrementAndGet(b);
                cores.add(ctx.coreId());
                ctx.tensor(0).setDouble(b, 10L * b + 1);
            }, Arg.inout(out));
            // found through the TensorMap: runs only after the last block
            orch.submit("sum", CoreType.AIC, ctx -> {
                long s = 0;
                for (int b = 0; b < blocks; b++) {
                    s += (long) ctx.tensor(0).getDouble(b);
                }
                ctx.tensor(1).setDouble(0, s);
            }, Arg.input(out), Arg.outputExisting(sum));
        }, CallConfig.defaults().withAicpuThreadNum(4));
        for (int b = 0; b < blocks; b++) {
            assertThat(runs.get(b)).as("runs of block %d", b).isEqualTo(1);
        }
        assertThat(sum.getDouble(0)).isEqualTo(10L * blocks * (blocks - 1) / 2 + blocks);
        assertThat(rep.tasksExecuted()).isEqualTo(2);
        assertThat(cores).allMatch(c -> c >= 0 && c < Platform.A2A3SIM.aivCores());
        assertThat(cores.stream().distinct().count()).isGreaterThan(1);
    }

    @Test
    void mixedTaskRunsEachActiveLaneOfEveryBlockOnOneCluster() {
        int blocks = 6;
        Tensor out = Tensor.allocate(arena, DType.INT32, blocks, 3);
        int[][] core = new int[blocks][3];
        RunReport rep = chip.run(orch -> {
            TaskBody aic = ctx -> {
                core[ctx.blockIndex()][0] = ctx.coreId();
                ctx.tensor(0).setDouble(ctx.blockIndex() * 3L, 100 + ctx.blockIndex());
            };
            TaskBody aiv = ctx -> {
                int lane = 1 + ctx.subBlockIndex();
                core[ctx.blockIndex()][lane] = ctx.coreId();
                assertThat(ctx.coreType()).isEqualTo(CoreType.AIV);
                // the cube lane of the block ran first on this cluster
                long cube = (long) ctx.tensor(0).getDouble(ctx.blockIndex() * 3L);
                ctx.tensor(0).setDouble(ctx.blockIndex() * 3L + lane, cube * 10 + lane);
            };
            orch.submitMixed(Launch.blocks(blocks), new MixedKernels("mix", aic, aiv, aiv), Arg.inout(out));
        }, CallConfig.defaults().withAicpuThreadNum(3));
        assertThat(rep.tasksExecuted()).isEqualTo(1);
        for (int b = 0; b < blocks; b++) {
            assertThat(out.getDouble(b * 3L)).isEqualTo(100 + b);
            assertThat(out.getDouble(b * 3L + 1)).isEqualTo((100 + b) * 10 + 1);
            assertThat(out.getDouble(b * 3L + 2)).isEqualTo((100 + b) * 10 + 2);
            assertThat(core[b][1]).isEqualTo(2 * core[b][0]);
            assertThat(core[b][2]).isEqualTo(2 * core[b][0] + 1);
        }
    }

    @Test
    void mixedTaskWithOnlyVectorLanesCountsTwoSubtasksPerBlock() {
        Tensor out = Tensor.allocate(arena, DType.INT32, 4, 2);
        chip.run(orch -> orch.submitMixed(Launch.blocks(4), new MixedKernels("vv", null,
                ctx -> ctx.tensor(0).setDouble(ctx.blockIndex() * 2L, 1),
                ctx -> ctx.tensor(0).setDouble(ctx.blockIndex() * 2L + 1, 2)), Arg.inout(out)), CallConfig.defaults());
        assertThat(out.toDoubleArray()).containsExactly(1, 2, 1, 2, 1, 2, 1, 2);
    }

    @Test
    void allocTensorsIsAKernellessTaskWhoseOutputsLaterTasksUse() {
        Tensor host = Tensor.allocate(arena, DType.INT32, 8);
        RunReport rep = chip.run(orch -> {
            try (Scope m = orch.manualScope()) {
                long alloc = orch.allocTensors(new Arg.Output(DType.INT32, new long[] {8}));
                Tensor scratch = orch.output(alloc, 0);
                long fill = orch.submit(Launch.after(alloc), "fill", CoreType.AIV, ctx -> {
                    for (int i = 0; i < 8; i++) {
                        ctx.tensor(0).setDouble(i, i * i);
                    }
                }, Arg.outputExisting(scratch));
                orch.submit(Launch.after(fill), "copy", CoreType.AIC, ctx -> {
                    for (int i = 0; i < 8; i++) {
                        ctx.tensor(1).setDouble(i, ctx.tensor(0).getDouble(i) + 1);
                    }
                }, Arg.input(scratch), Arg.outputExisting(host));
            }
        }, CallConfig.defaults());
        for (int i = 0; i < 8; i++) {
            assertThat(host.getDouble(i)).isEqualTo(i * i + 1);
        }
        assertThat(rep.tasksExecuted()).isEqualTo(3);
        assertThat(rep.ring(1).heapMax()).isEqualTo(OrchestratorImpl.OUTPUT_ALIGN);
        ChipRuntimeException none = runFailing(orch -> orch.allocTensors());
        assertThat(none.error()).isEqualTo(ErrorCode.INVALID_ARGS);
        assertThat(none.getMessage()).contains("alloc_tensors needs at least one Arg.Output");
    }

    @Test
    void writeScalarWaitsForEarlierReadersAndLaterTasksSeeTheValue() {
        Tensor flag = Tensor.allocate(arena, DType.INT32, 1);
        Tensor seen = Tensor.allocate(arena, DType.INT32, 2);
        CountDownLatch firstReaderStarted = new CountDownLatch(1);
        chip.run(orch -> {
            orch.submit("slowReader", CoreType.AIV, ctx -> {
                firstReaderStarted.countDown();
                Thread.sleep(50); // a write that did not wait would land within this
                ctx.tensor(1).setDouble(0, ctx.tensor(0).getDouble(0));
            }, Arg.input(flag), Arg.outputExisting(seen.slice(new long[] {0}, new long[] {1})));
            await(firstReaderStarted);
            orch.writeScalar(flag, 42);
            orch.submit("reader", CoreType.AIV, ctx -> ctx.tensor(1).setDouble(0, ctx.tensor(0).getDouble(0)),
                    Arg.input(flag), Arg.outputExisting(seen.slice(new long[] {1}, new long[] {1})));
            assertThat(orch.readScalar(seen.slice(new long[] {1}, new long[] {1}))).isEqualTo(42);
        }, CallConfig.defaults());
        assertThat(seen.getDouble(0)).isZero();
        assertThat(seen.getDouble(1)).isEqualTo(42);
        assertThat(flag.getDouble(0)).isEqualTo(42);
    }

    @Test
    void deviceEstimateRunsTheBlocksOnTheirOwnCoresAndFollowsExplicitDeps() {
        long oneUs = 1850; // a2a3: 1850 MHz; submit 0.874 µs, dispatch 0.3 µs, completion 0.6 µs (docs/device-model.md)
        TaskBody costing = ctx -> ctx.recordDeviceCost(oneUs, 0);
        // 48 blocks on the 48 vector cores at once: submitted 0.874, start 1.174, end 2.174, done 2.774
        RunReport spmd = chip.run(orch -> orch.submit(Launch.blocks(48), "spmd", CoreType.AIV, costing),
                CallConfig.defaults());
        assertThat(spmd.deviceMicros()).hasValueCloseTo(2.774, org.assertj.core.api.Assertions.within(1e-6));
        // 49 blocks: the last one waits for a core (ends 2.174, next starts 2.474, ends 3.474, done 4.074)
        RunReport more = chip.run(orch -> orch.submit(Launch.blocks(49), "spmd", CoreType.AIV, costing),
                CallConfig.defaults());
        assertThat(more.deviceMicros()).hasValueCloseTo(4.074, org.assertj.core.api.Assertions.within(1e-6));
        // an explicit dependency orders two tasks that share no tensor: b ready at 2.774, ends 4.074 + ... = 5.674
        RunReport chain = chip.run(orch -> {
            try (Scope m = orch.manualScope()) {
                long a = orch.submit("a", CoreType.AIV, costing);
                orch.submit(Launch.after(a), "b", CoreType.AIV, ctx -> ctx.recordDeviceCost(2 * oneUs, 0));
            }
        }, CallConfig.defaults());
        assertThat(chain.deviceMicros()).hasValueCloseTo(5.674, org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void launchRejectsAZeroBlockCount() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Launch.blocks(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("block_num must be >= 1, got 0");
        assertThat(Launch.after(3, 4).withDeps(5).deps()).containsExactly(3, 4, 5);
    }
}
