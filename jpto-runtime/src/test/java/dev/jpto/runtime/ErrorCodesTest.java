package dev.jpto.runtime;

import dev.jpto.runtime.chip.Chip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One test per error code, each provoking it on purpose, then proving the chip still runs a good program. */
@Timeout(60)
@SuppressWarnings("try") // scopes opened only for their depth
class ErrorCodesTest {
    private static final long MIB = 1L << 20;
    private Chip chip;
    private Arena arena;

    @BeforeEach
    void open() {
        chip = Chip.open(Platform.A2A3SIM, 0, ChipOptions.defaults()
                .withAllocDeadlockTimeout(Duration.ofMillis(100))
                .withSchedulerTimeout(Duration.ofMillis(300)));
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() {
        chip.close();
        arena.close();
    }

    private static final TaskBody NOOP = ctx -> { };

    private ChipRuntimeException runFailing(Orchestration o, CallConfig config) {
        try {
            chip.run(o, config);
        } catch (ChipRuntimeException e) {
            assertStillUsable();
            return e;
        }
        throw new AssertionError("run did not fail");
    }

    /** After any failure the same chip runs a program with a dependency chain correctly. */
    private void assertStillUsable() {
        Tensor t = Tensor.allocate(arena, DType.INT32, 1);
        RunReport rep = chip.run(orch -> {
            for (int i = 0; i < 50; i++) {
                try (Scope s = orch.scope()) {
                    long a = orch.submit("make", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, 1),
                            Arg.output(DType.INT32, 1));
                    orch.submit("acc", CoreType.AIC, ctx -> ctx.tensor(1).setDouble(0,
                            ctx.tensor(1).getDouble(0) + ctx.tensor(0).getDouble(0)),
                            Arg.input(orch.output(a, 0)), Arg.inout(t));
                }
            }
        }, CallConfig.defaults());
        assertThat(t.getDouble(0)).isEqualTo(50);
        assertThat(rep.tasksExecuted()).isEqualTo(100);
    }

    @Test
    void heapRequestLargerThanRingFailsAtOnceWithCode2AndRecommendation() {
        long request = 288 * MIB; // 301989888 bytes, as in the seed report
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope s = orch.scope()) {
                orch.submit("prefill_attention", CoreType.AIC, NOOP, Arg.output(DType.INT8, request));
            }
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
        assertThat(e.orchErrorCode()).isEqualTo(2);
        assertThat(e.schedErrorCode()).isZero();
        assertThat(e.runtimeStatus()).isEqualTo(-2);
        assertThat(e.getMessage())
                .startsWith("orch_error_code=2 HEAP_RING_DEADLOCK - the task allocator could not reserve 301989888 heap "
                        + "bytes on ring 1 (capacity 268435456, in use 0")
                .contains("scope depth 1", "kernel 'prefill_attention'", "larger than the ring's whole heap")
                .contains("set ring_heap for ring 1 to at least 288MiB (runtime_cfg ring_heap=0,288MiB,0,0)");
        assertThat(e.shortfall()).hasValue(new RingShortfall(RingField.HEAP, 1, request, new long[4]));
        // The recommendation, taken literally, works.
        chip.run(orch -> {
            try (Scope s = orch.scope()) {
                orch.submit("prefill_attention", CoreType.AIC, NOOP, Arg.output(DType.INT8, request));
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingHeap(0, 288 * MIB, 0, 0)));
    }

    @Test
    void liveSetOverHeapInOneScopeIsScopeGatedCode2() {
        long each = 100 * MIB;
        Orchestration prog = orch -> {
            try (Scope s = orch.scope()) {
                for (int i = 0; i < 3; i++) {
                    orch.submit("layer" + i, CoreType.AIV, NOOP, Arg.output(DType.FP32, each / 4));
                }
            }
        };
        ChipRuntimeException e = runFailing(prog, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
        // Two live 100 MiB outputs (already 1024- and 64-aligned) occupy 200 MiB; a third needs 100 MiB more.
        assertThat(e.getMessage())
                .contains("could not reserve " + each + " heap bytes on ring 1 (capacity 268435456, in use "
                        + 2 * each + ", available " + (256 * MIB - 2 * each))
                .contains("kernel 'layer2'", "scope-gated", "live tasks 2/16384")
                .contains("set ring_heap for ring 1 to at least 300MiB (runtime_cfg ring_heap=0,300MiB,0,0)");
        chip.run(prog, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingHeap(0, 300 * MIB, 0, 0)));
    }

    @Test
    void taskRingFullBehindAGatedHeadIsCode3() {
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope d1 = orch.scope(); Scope d2 = orch.scope(); Scope d3 = orch.scope()) {
                orch.submit("held", CoreType.AIV, NOOP); // ring 3 head, held by the open depth-3 scope
                try (Scope d4 = orch.scope()) {
                    for (int i = 0; i < 7; i++) {
                        orch.submit("t" + i, CoreType.AIV, NOOP);
                    }
                }
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(0, 0, 0, 8)));
        assertThat(e.error()).isEqualTo(ErrorCode.FLOW_CONTROL_DEADLOCK);
        assertThat(e.runtimeStatus()).isEqualTo(-3);
        assertThat(e.getMessage())
                .startsWith("orch_error_code=3 FLOW_CONTROL_DEADLOCK - the task allocator could not get a task slot "
                        + "on ring 3 (task window 8, live tasks 7")
                .contains("kernel 't6'", "0x0000000300000007", "scope-gated")
                .contains("set ring_task_window for ring 3 to at least 16 (runtime_cfg ring_task_window=0,0,0,16)");
    }

    @Test
    void taskRingFullBehindAHungTaskHitsTheBackstop() {
        CountDownLatch never = new CountDownLatch(1);
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope s = orch.scope()) {
                orch.submit("hang", CoreType.AIV, ctx -> never.await());
            }
            try (Scope s = orch.scope()) {
                for (int i = 0; i < 4; i++) {
                    orch.submit("t" + i, CoreType.AIV, NOOP);
                }
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(0, 4, 0, 0)));
        assertThat(e.error()).isEqualTo(ErrorCode.FLOW_CONTROL_DEADLOCK);
        assertThat(e.getMessage()).contains("on ring 1 (task window 4, live tasks 3", "no task on this ring was reclaimed for",
                "kernel 'hang' state PENDING");
    }

    @Test
    void scopeHoldingAWholeWindowIsCode1() {
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope s = orch.scope()) {
                for (int i = 0; i < 20; i++) {
                    orch.submit("t", CoreType.AIV, NOOP);
                }
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(0, 16, 0, 0)));
        assertThat(e.error()).isEqualTo(ErrorCode.SCOPE_DEADLOCK);
        assertThat(e.getMessage()).startsWith("orch_error_code=1 SCOPE_DEADLOCK - Scope Deadlock Detected! (ring 1) "
                + "the scope at depth 1 already holds 15 tasks, and a task window of 16 admits at most 15")
                .contains("set ring_task_window for ring 1 to at least 32 (runtime_cfg ring_task_window=0,32,0,0)");
    }

    @Test
    void depPoolTooSmallForOneTaskIsCode4() {
        CountDownLatch go = new CountDownLatch(1);
        ChipRuntimeException e = runFailing(orch -> {
            Arg[] ins = new Arg[5];
            for (int i = 0; i < 5; i++) {
                long p = orch.submit("p" + i, CoreType.AIV, ctx -> go.await(), Arg.output(DType.FP32, 4));
                ins[i] = Arg.input(orch.output(p, 0));
            }
            orch.submit("join", CoreType.AIV, NOOP, ins);
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingDepPool(4, 0, 0, 0)));
        go.countDown();
        assertThat(e.error()).isEqualTo(ErrorCode.DEP_POOL_OVERFLOW);
        assertThat(e.runtimeStatus()).isEqualTo(-4);
        assertThat(e.getMessage()).startsWith("orch_error_code=4 DEP_POOL_OVERFLOW - Dependency Pool Deadlock: the "
                + "dependency pool of ring 0 could not supply 5 entries (capacity 4, in use 0")
                .contains("kernel 'join'", "set ring_dep_pool for ring 0 to at least 8 (runtime_cfg ring_dep_pool=8,0,0,0)");
    }

    @Test
    void depPoolWedgedByScopeGatedConsumersIsCode4() {
        CountDownLatch go = new CountDownLatch(1);
        ChipRuntimeException e = runFailing(orch -> {
            long p = orch.submit("slow", CoreType.AIV, ctx -> go.await(), Arg.output(DType.FP32, 4));
            Tensor out = orch.output(p, 0);
            for (int i = 0; i < 5; i++) {
                orch.submit("c" + i, CoreType.AIV, NOOP, Arg.input(out));
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingDepPool(4, 0, 0, 0)));
        go.countDown();
        assertThat(e.error()).isEqualTo(ErrorCode.DEP_POOL_OVERFLOW);
        assertThat(e.getMessage()).contains("could not supply 1 entries (capacity 4, in use 4", "kernel 'c4'",
                "scope-gated");
    }

    @Test
    void tensorMapExhaustedIsCode11() {
        Tensor big = Tensor.allocate(arena, DType.INT8, 65536 + 1024);
        ChipRuntimeException e = runFailing(orch -> {
            for (int task = 0; task < 65; task++) {
                Arg[] args = new Arg[1024];
                for (int i = 0; i < 1024; i++) {
                    args[i] = Arg.outputExisting(big.slice(new long[] {task * 1024L + i}, new long[] {1}));
                }
                orch.submit("scatter", CoreType.AIV, NOOP, args);
            }
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.TENSORMAP_OVERFLOW);
        assertThat(e.runtimeStatus()).isEqualTo(-11);
        assertThat(e.getMessage()).startsWith("orch_error_code=11 TENSORMAP_OVERFLOW - TensorMap Entry Pool Deadlock: "
                + "1024 entries needed").contains("capacity 65536, in use 65536", "kernel 'scatter'",
                "0x0000000000000040");
    }

    @Test
    void hungKernelIsSchedulerTimeoutS1() {
        CountDownLatch never = new CountDownLatch(1);
        ChipRuntimeException e = runFailing(orch -> {
            orch.submit("ok", CoreType.AIC, NOOP);
            orch.submit("stuck_kernel", CoreType.AIV, ctx -> never.await(30, TimeUnit.SECONDS));
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.SCHEDULER_TIMEOUT);
        assertThat(e.orchErrorCode()).isZero();
        assertThat(e.schedErrorCode()).isEqualTo(100);
        assertThat(e.runtimeStatus()).isEqualTo(-100);
        assertThat(e.getMessage()).startsWith("sched_error_code=100 SCHEDULER_TIMEOUT - no task completed for")
                .contains("sub_class=S1:running-stalled", "completed=1/2", "running=1", "orch_done=true",
                        "stuck_task_id=0x0000000000000001 (ring 0, local 1) kernel 'stuck_kernel'", "stuck_core=AIV",
                        "raise the scheduler timeout, now", "runtime_cfg os_env=SIMPLER_SCHEDULER_TIMEOUT_MS=<ms>");
    }

    @Test
    void kernelExceptionNamesTaskKernelCoreAndCause() {
        ChipRuntimeException e = runFailing(orch -> {
            try (Scope s = orch.scope()) {
                orch.submit("ok", CoreType.AIC, NOOP);
                orch.submit("bad_kernel", CoreType.AIC, ctx -> {
                    throw new ArithmeticException("boom " + ctx.coreId());
                });
            }
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.KERNEL_EXCEPTION);
        assertThat(e.getMessage()).contains("task 0x0000000100000001 (ring 1, local 1) kernel 'bad_kernel' on AIC core",
                "threw java.lang.ArithmeticException: boom");
        assertThat(e.getCause()).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void scopeMisuseIsInvalidArgs() {
        ChipRuntimeException e = runFailing(orch -> {
            Scope a = orch.scope();
            Scope b = orch.scope();
            a.close();
            b.close();
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.INVALID_ARGS);
        assertThat(e.getMessage()).contains("scope at depth 1 closed while depth 2 is innermost");
        ChipRuntimeException open = runFailing(orch -> orch.scope(), CallConfig.defaults());
        assertThat(open.getMessage()).contains("returned with 1 scope(s) still open");
    }

    @Test
    void orchestrationExceptionIsExplicitOrchFatal() {
        ChipRuntimeException e = runFailing(orch -> {
            orch.submit("t", CoreType.AIV, NOOP);
            throw new IllegalStateException("model shape mismatch");
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.EXPLICIT_ORCH_FATAL);
        assertThat(e.getMessage()).contains("IllegalStateException: model shape mismatch");
    }

    @Test
    void hardwarePlatformsHaveNoDeviceRuntime() {
        assertThatThrownBy(() -> Chip.open(Platform.A5, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("platform a5 is hardware: no device runtime in this build; use a5sim (or a2a3sim / a5sim)");
        assertThatThrownBy(() -> Chip.open(Platform.parse("a2a3"), 0))
                .hasMessageContaining("no device runtime in this build; use a2a3sim");
    }

    @Test
    void kernelIgnoringInterruptsIsAbandonedAndTheChipStillRuns() {
        java.util.concurrent.atomic.AtomicBoolean release = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            ChipRuntimeException e = runFailing(orch -> orch.submit("deaf_kernel", CoreType.AIC, ctx -> {
                while (!release.get()) {
                    Thread.onSpinWait(); // ignores interrupts: the chip must give up on this thread
                }
            }), CallConfig.defaults());
            assertThat(e.error()).isEqualTo(ErrorCode.SCHEDULER_TIMEOUT);
            // it computes, so it was given until it used the timeout in CPU time, and not past 10 timeouts
            assertThat(e.getMessage()).contains("S1:running-stalled", "kernel 'deaf_kernel'", "cpu_ms=");
            long stalledMs = Long.parseLong(e.getMessage().replaceAll("(?s).*no task completed for (\\d+) ms.*", "$1"));
            assertThat(stalledMs).isBetween(300L, 300L * 10 + 1000);
        } finally {
            release.set(true);
        }
    }

    /** A kernel that computes past the timeout is slow, not hung: the watchdog lets it finish. */
    @Test
    void aKernelComputingPastTheTimeoutIsNotAHang() {
        long[] spins = new long[1];
        chip.run(orch -> orch.submit("slow_kernel", CoreType.AIV, ctx -> {
            long end = System.nanoTime() + 450_000_000L; // 1.5 timeouts of busy work
            while (System.nanoTime() < end) {
                spins[0]++;
            }
        }), CallConfig.defaults());
        assertThat(spins[0]).isPositive();
    }

    @Test
    void apiMisuseIsRejectedWithTheRule() {
        Tensor t = Tensor.allocate(arena, DType.FP32, 4);
        assertThatThrownBy(() -> new Arg.TensorArg(t, Direction.OUTPUT))
                .hasMessageContaining("direction OUTPUT allocates a new buffer: use Arg.output(dtype, shape)");
        ChipRuntimeException e = runFailing(orch -> {
            long id = orch.submit("t", CoreType.AIV, NOOP, Arg.input(t));
            orch.output(id, 0);
        }, CallConfig.defaults());
        assertThat(e.error()).isEqualTo(ErrorCode.EXPLICIT_ORCH_FATAL);
        assertThat(e.getMessage()).contains("argument 0 of task 0x0000000000000000 (ring 0, local 0) (kernel 't') "
                + "is not an Arg.Output");
    }

    @Test
    void fanInBeyondTheInlineCapFillsTheSpillPoolCode4() {
        int producers = 90; // 64 inline + 26 spilled per consumer
        CountDownLatch done = new CountDownLatch(producers);
        ChipRuntimeException e = runFailing(orch -> {
            Arg[] ins = new Arg[producers];
            for (int i = 0; i < producers; i++) {
                long p = orch.submit("leaf", CoreType.AIV, ctx -> done.countDown(), Arg.output(DType.FP32, 1));
                ins[i] = Arg.input(orch.output(p, 0));
            }
            done.await(); // all producers completed: no dep-list nodes, only fanin storage is needed
            for (int c = 0; c < 4; c++) {
                orch.submit("join" + c, CoreType.AIC, NOOP, ins);
            }
        }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingDepPool(100, 0, 0, 0)));
        assertThat(e.error()).isEqualTo(ErrorCode.DEP_POOL_OVERFLOW);
        assertThat(e.getMessage()).startsWith("orch_error_code=4 DEP_POOL_OVERFLOW - Fanin Spill Pool Deadlock: the "
                + "fanin spill pool of ring 0 (fanin edges past 64 per task) could not supply an entry (capacity 100, "
                + "in use 100").contains("kernel 'join3'", "scope-gated",
                "set ring_dep_pool for ring 0 to at least 128 (runtime_cfg ring_dep_pool=128,0,0,0)");
    }
}
