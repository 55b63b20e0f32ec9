package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults (issue 9): a kernel that throws, a kernel that never returns, an orchestration that throws inside a scope,
 * and a host that cancels a run. Each gives its defined error, and the same chip then runs the next program
 * correctly; a thousand failed runs leave no thread and no mapped ring heap behind.
 */
@Timeout(120)
@SuppressWarnings("try") // scopes opened only for their depth
class FaultRecoveryTest {
    private static final int DEVICE = 7;
    private static final String CHIP_THREADS = "jpto-" + Platform.A2A3SIM.text() + "-" + DEVICE + "-";
    private static final TaskBody NOOP = ctx -> { };
    private static final long STALL_BOUND_MS = 300;

    private Chip chip;
    private Arena arena;
    private long regionsBefore;

    @BeforeEach
    void open() {
        regionsBefore = Chip.mappedHeapRegions();
        chip = Chip.open(Platform.A2A3SIM, DEVICE, ChipOptions.defaults());
        arena = Arena.ofShared();
    }

    /** The hung-kernel tests wait for the stall bound: a short one keeps them fast (others keep the default). */
    private void reopenWithShortStallBound() {
        chip.close();
        chip = Chip.open(Platform.A2A3SIM, DEVICE, ChipOptions.defaults()
                .withSchedulerTimeout(Duration.ofMillis(STALL_BOUND_MS)));
    }

    @AfterEach
    void close() throws InterruptedException {
        chip.close();
        arena.close();
        assertThat(awaitChipThreads(0)).as("scheduler threads of a closed chip").isEmpty();
        assertThat(Chip.mappedHeapRegions()).as("ring heaps mapped after close").isEqualTo(regionsBefore);
    }

    /** rows of out = running sums of in, through a chain of INOUT tasks across scopes: a result that can be wrong. */
    private RunReport runGoodProgram(CallConfig config) {
        int n = 40;
        Tensor acc = Tensor.allocate(arena, DType.INT32, 1);
        Tensor sums = Tensor.allocate(arena, DType.INT32, n);
        RunReport rep = chip.run(orch -> {
            for (int i = 0; i < n; i++) {
                final int v = i + 1;
                try (Scope s = orch.scope()) {
                    long make = orch.submit("make", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, v),
                            Arg.output(DType.INT32, 1));
                    orch.submit("acc", CoreType.AIC, ctx -> {
                        double next = ctx.tensor(1).getDouble(0) + ctx.tensor(0).getDouble(0);
                        ctx.tensor(1).setDouble(0, next);
                        ctx.tensor(2).setDouble(0, next);
                    }, Arg.input(orch.output(make, 0)), Arg.inout(acc), Arg.outputExisting(sums.slice(
                            new long[] {i}, new long[] {1})));
                }
            }
        }, config);
        for (int i = 0; i < n; i++) {
            assertThat(sums.getDouble(i)).as("running sum %d", i).isEqualTo((i + 1) * (i + 2) / 2.0);
        }
        assertThat(rep.tasksExecuted()).isEqualTo(2L * n);
        return rep;
    }

    private ChipRuntimeException runFailing(Orchestration o) {
        try {
            chip.run(o, CallConfig.defaults());
        } catch (ChipRuntimeException e) {
            runGoodProgram(CallConfig.defaults());
            return e;
        }
        throw new AssertionError("the run did not fail");
    }

    private static long usedHeapAfterGc() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Live threads by name; the JDK's common pool workers come and go with idle time, not with chips. */
    private static List<String> liveThreadNames() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> !n.startsWith("ForkJoinPool.commonPool-worker-")).sorted().toList();
    }

    private static Set<String> chipThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith(CHIP_THREADS)).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The chip's live threads once their count is {@code expected}, or after a bounded wait (5 s). */
    private static Set<String> awaitChipThreads(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Set<String> names = chipThreads();
        while (names.size() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
            names = chipThreads();
        }
        return names;
    }

    @Test
    void aKernelThatThrowsNamesTaskKernelCoreAndCause() {
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope s = orch.scope()) {
                orch.submit("fine", CoreType.AIV, NOOP);
                orch.submit("divide", CoreType.AIV, ctx -> {
                    throw new ArithmeticException("/ by zero in tile " + ctx.taskId());
                });
            }
        });
        assertThat(e.error()).isEqualTo(ErrorCode.KERNEL_EXCEPTION);
        assertThat(e.schedErrorCode()).isEqualTo(104);
        assertThat(e.getMessage()).startsWith("sched_error_code=104 KERNEL_EXCEPTION - ")
                .contains("task 0x0000000100000001 (ring 1, local 1)", "kernel 'divide'", "on AIV core",
                        "java.lang.ArithmeticException: / by zero in tile 4294967297");
        assertThat(e.getCause()).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void aKernelThatNeverReturnsIsCode100AfterTheStallBound() throws InterruptedException {
        reopenWithShortStallBound();
        CountDownLatch never = new CountDownLatch(1);
        long start = System.nanoTime();
        ChipRuntimeException e;
        try {
            chip.run(orch -> orch.submit("spin_forever", CoreType.AIC, ctx -> never.await(1, TimeUnit.HOURS)),
                    CallConfig.defaults());
            throw new AssertionError("the run did not fail");
        } catch (ChipRuntimeException x) {
            e = x;
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).isEqualTo(ErrorCode.SCHEDULER_TIMEOUT);
        assertThat(e.getMessage()).startsWith("sched_error_code=100 SCHEDULER_TIMEOUT - no task completed for ")
                .contains("(scheduler timeout " + STALL_BOUND_MS + " ms)", "sub_class=S1:running-stalled",
                        "kernel 'spin_forever'", "stuck_core=AIC");
        assertThat(ms).as("the failure waits at least the stall bound").isGreaterThanOrEqualTo(STALL_BOUND_MS);
        // the stuck kernel was interrupted when the run ended: the chip keeps its threads and runs the next program
        runGoodProgram(CallConfig.defaults());
        int schedulers = Platform.A2A3SIM.hostAicpuThreadNum(1) - 1;
        assertThat(awaitChipThreads(schedulers)).hasSize(schedulers);
    }

    @Test
    void anOrchestrationThrowingInsideAScopeIsACleanError() {
        ChipRuntimeException closedByTry = runFailing(orch -> {
            try (Scope s = orch.scope()) {
                orch.submit("before", CoreType.AIV, NOOP);
                try (Scope inner = orch.scope()) {
                    orch.submit("inner", CoreType.AIC, NOOP);
                    throw new IllegalStateException("shape [3, 5] does not tile by 64");
                }
            }
        });
        assertThat(closedByTry.error()).isEqualTo(ErrorCode.EXPLICIT_ORCH_FATAL);
        assertThat(closedByTry.getMessage()).startsWith("orch_error_code=9 EXPLICIT_ORCH_FATAL - the orchestration "
                + "threw java.lang.IllegalStateException: shape [3, 5] does not tile by 64");
        assertThat(closedByTry.getCause()).isInstanceOf(IllegalStateException.class);

        ChipRuntimeException leftOpen = runFailing(orch -> {
            orch.scope();
            orch.scope();
            orch.submit("t", CoreType.AIV, NOOP);
            throw new java.io.IOException("weights file vanished");
        });
        assertThat(leftOpen.error()).isEqualTo(ErrorCode.EXPLICIT_ORCH_FATAL);
        assertThat(leftOpen.getMessage()).contains("java.io.IOException: weights file vanished at scope depth 2",
                "after 1 submitted tasks");
    }

    @Test
    void aKernelIgnoringInterruptsIsAbandonedItsThreadEndsWhenItReturns() throws InterruptedException {
        reopenWithShortStallBound();
        AtomicBoolean release = new AtomicBoolean();
        try {
            ChipRuntimeException e = runFailing(orch -> orch.submit("deaf", CoreType.AIV, ctx -> {
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }));
            assertThat(e.getMessage()).contains("S1:running-stalled", "kernel 'deaf'");
        } finally {
            release.set(true);
        }
        // the abandoned engine's threads leave once the kernel returns; the new engine keeps its own
        int schedulers = Platform.A2A3SIM.hostAicpuThreadNum(1) - 1;
        assertThat(awaitChipThreads(schedulers)).hasSize(schedulers);
    }

    @Test
    void aCancelledRunStopsAtOnceWithCode105AndTheChipRunsTheNextProgram() throws Exception {
        Tensor counter = Tensor.allocate(arena, DType.INT32, 1);
        CountDownLatch started = new CountDownLatch(1);
        Thread caller = Thread.currentThread();
        Thread canceller = Thread.ofPlatform().start(() -> {
            try {
                started.await();
                caller.interrupt();
            } catch (InterruptedException ignored) {
                // the test ends either way
            }
        });
        ChipRuntimeException e;
        try {
            chip.run(orch -> {
                for (long i = 0; ; i++) { // an endless program: only a cancel ends it
                    orch.submit("count", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0,
                            ctx.tensor(0).getDouble(0) + 1), Arg.inout(counter));
                    if (i == 100) {
                        started.countDown();
                    }
                }
            }, CallConfig.defaults());
            throw new AssertionError("an endless run returned");
        } catch (ChipRuntimeException x) {
            e = x;
        } finally {
            canceller.join();
        }
        assertThat(Thread.interrupted()).as("the interrupt status is kept for the caller").isTrue();
        assertThat(e.error()).isEqualTo(ErrorCode.CANCELLED);
        assertThat(e.schedErrorCode()).isEqualTo(105);
        assertThat(e.getMessage()).contains("the host cancelled the run: thread '" + caller.getName()
                + "' was interrupted", "the chip is usable again");
        // interrupted before a run: nothing runs
        caller.interrupt();
        Tensor untouched = Tensor.allocate(arena, DType.INT32, 1);
        try {
            chip.run(orch -> orch.submit("count", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, 1),
                    Arg.inout(untouched)), CallConfig.defaults());
            throw new AssertionError("an interrupted caller ran");
        } catch (ChipRuntimeException x) {
            assertThat(x.error()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(x.getMessage()).contains("before it started", "nothing ran");
        } finally {
            assertThat(Thread.interrupted()).isTrue();
        }
        assertThat(untouched.getDouble(0)).isZero();
        runGoodProgram(CallConfig.defaults());
    }

    /**
     * A cancel that arrives while the orchestrator waits (here: the end-of-run drain behind a kernel that does not
     * return) stops the wait with code 105 at once, not with code 100 after the stall bound (the default 10 s).
     */
    @Test
    void aCancelDuringAWaitIsCode105() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Thread caller = Thread.currentThread();
        Thread canceller = Thread.ofPlatform().start(() -> {
            try {
                running.await();
                caller.interrupt();
            } catch (InterruptedException ignored) {
                // the test ends either way
            }
        });
        ChipRuntimeException e;
        try {
            // the kernel runs only after its submit returned: the interrupt finds the orchestrator draining
            chip.run(orch -> orch.submit("wait_forever", CoreType.AIV, ctx -> {
                running.countDown();
                never.await(1, TimeUnit.HOURS);
            }), CallConfig.defaults());
            throw new AssertionError("the run did not fail");
        } catch (ChipRuntimeException x) {
            e = x;
        } finally {
            canceller.join();
        }
        assertThat(Thread.interrupted()).as("the interrupt status is kept for the caller").isTrue();
        assertThat(e.error()).isEqualTo(ErrorCode.CANCELLED);
        assertThat(e.getMessage()).contains("1 submitted and 0 completed tasks");
        runGoodProgram(CallConfig.defaults());
    }

    /**
     * 1,000 failed runs of five kinds, each followed by a good run on the same chip, on changing thread counts and
     * ring sizes: afterwards no new thread is alive and the same ring heaps are mapped as before.
     */
    @Test
    void aThousandFailedRunsLeaveNoThreadsAndNoMappedHeapsBehind() throws InterruptedException {
        // small task windows keep the 400 ring and engine rebuilds (the config changes every few runs) cheap
        RuntimeEnv windows = RuntimeEnv.defaults().withRingTaskWindow(256);
        CallConfig base = CallConfig.defaults().withRuntimeEnv(windows);
        // a thread count other than the host default, so that the engine is rebuilt
        CallConfig three = base.withAicpuThreadNum(Platform.A2A3SIM.hostAicpuThreadNum(1) == 3 ? 4 : 3);
        CallConfig small = base.withRuntimeEnv(windows.withRingHeap(64 * 1024));
        // warm-up: the chip's threads and rings exist before the baseline is taken
        runGoodProgram(base);
        List<String> threadsBefore = liveThreadNames();
        long heapBefore = usedHeapAfterGc();
        long regions = Chip.mappedHeapRegions();
        long bytes = Chip.mappedHeapBytes();
        int[] byCode = new int[256];
        java.util.Map<ErrorCode, String> firstMessage = new java.util.TreeMap<>();
        long start = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            int kind = i % 5;
            CallConfig config = switch (kind) {
                case 1 -> three;
                case 4 -> small;
                default -> base;
            };
            Orchestration failing = switch (kind) {
                case 0 -> orch -> {
                    orch.submit("ok", CoreType.AIC, NOOP);
                    orch.submit("throws", CoreType.AIV, ctx -> {
                        throw new IllegalStateException("kernel fault");
                    });
                };
                case 1 -> orch -> {
                    try (Scope s = orch.scope()) {
                        orch.submit("ok", CoreType.AIV, NOOP);
                        throw new IllegalArgumentException("orchestration fault");
                    }
                };
                case 2 -> orch -> {
                    orch.scope();
                    orch.submit("ok", CoreType.AIV, NOOP);
                };
                case 3 -> orch -> {
                    Scope a = orch.scope();
                    Scope b = orch.scope();
                    a.close();
                    b.close();
                };
                default -> orch -> orch.submit("too_big", CoreType.AIV, NOOP, Arg.output(DType.FP32, 1 << 16));
            };
            try {
                chip.run(failing, config);
                throw new AssertionError("run " + i + " (kind " + kind + ") did not fail");
            } catch (ChipRuntimeException e) {
                byCode[e.error().code()]++;
                firstMessage.putIfAbsent(e.error(), e.getMessage());
            }
            runGoodProgram(config);
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        // reported, not asserted: the Java heap is the GC's to size; the chip's own memory is the mapped ring heaps
        System.out.printf("1000 failed + 1000 good runs on one chip in %d ms; live threads %d -> %d; mapped ring "
                + "heaps %d -> %d; Java heap used after GC %d KiB -> %d KiB%n", ms, threadsBefore.size(),
                liveThreadNames().size(), regions, Chip.mappedHeapRegions(), heapBefore >> 10, usedHeapAfterGc() >> 10);
        assertThat(firstMessage.keySet()).as("codes seen: %s", firstMessage).containsExactly(
                ErrorCode.HEAP_RING_DEADLOCK, ErrorCode.INVALID_ARGS, ErrorCode.EXPLICIT_ORCH_FATAL,
                ErrorCode.KERNEL_EXCEPTION);
        assertThat(byCode[ErrorCode.KERNEL_EXCEPTION.code()]).isEqualTo(200);
        assertThat(byCode[ErrorCode.EXPLICIT_ORCH_FATAL.code()]).isEqualTo(200);
        assertThat(byCode[ErrorCode.INVALID_ARGS.code()]).isEqualTo(400);
        assertThat(byCode[ErrorCode.HEAP_RING_DEADLOCK.code()]).isEqualTo(200);

        runGoodProgram(base); // back on the baseline's thread count and ring sizes
        // engines were rebuilt when the thread count changed: compare the live threads by name, not identity
        int schedulers = Platform.A2A3SIM.hostAicpuThreadNum(1) - 1;
        assertThat(awaitChipThreads(schedulers)).hasSize(schedulers);
        assertThat(liveThreadNames()).as("live threads after the failed runs").isEqualTo(threadsBefore);
        assertThat(Chip.mappedHeapRegions()).as("mapped ring heaps").isEqualTo(regions);
        assertThat(Chip.mappedHeapBytes()).as("mapped ring heap bytes").isEqualTo(bytes);
    }
}
