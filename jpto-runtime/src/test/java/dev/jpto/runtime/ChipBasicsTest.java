package dev.jpto.runtime;

import dev.jpto.runtime.chip.Chip;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ring.Ring;
import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
@SuppressWarnings("try") // scopes opened only for their depth
class ChipBasicsTest {

    static TaskBody fill(double v) {
        return ctx -> {
            Tensor t = ctx.tensor(0);
            for (long i = 0; i < t.numel(); i++) {
                t.setDouble(i, v);
            }
        };
    }

    @Test
    void chainThroughHeapOutputsAndHostTensor() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor out = Tensor.allocate(arena, DType.FP32, 4, 8);
            RunReport rep = chip.run(orch -> {
                long a = orch.submit("fill", CoreType.AIV, fill(2), Arg.output(DType.FP32, 4, 8));
                Tensor ta = orch.output(a, 0);
                long b = orch.submit("square", CoreType.AIV, ctx -> {
                    Tensor in = ctx.tensor(0), o = ctx.tensor(1);
                    for (long i = 0; i < in.numel(); i++) {
                        o.setDouble(i, in.getDouble(i) * in.getDouble(i));
                    }
                }, Arg.input(ta), Arg.output(DType.FP32, 4, 8));
                Tensor tb = orch.output(b, 1);
                orch.submit("add1", CoreType.AIC, ctx -> {
                    Tensor in = ctx.tensor(0), o = ctx.tensor(1);
                    for (long i = 0; i < in.numel(); i++) {
                        o.setDouble(i, in.getDouble(i) + ctx.scalar(2));
                    }
                }, Arg.input(tb), Arg.outputExisting(out), Arg.scalar(1));
            }, CallConfig.defaults());
            for (long i = 0; i < out.numel(); i++) {
                assertThat(out.getDouble(i)).isEqualTo(5.0);
            }
            assertThat(rep.tasksExecuted()).isEqualTo(3);
            assertThat(rep.ring(0).heapBytes()).isEqualTo(256L << 20);
            assertThat(rep.ring(0).heapMax()).isEqualTo(2048);
            assertThat(rep.ring(0).taskWindow()).isEqualTo(16384);
        }
    }

    @Test
    void manyIndependentAndInoutChainsOnAllRings() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A5SIM, 1)) {
            Tensor acc = Tensor.allocate(arena, DType.INT64, 1);
            AtomicInteger count = new AtomicInteger();
            for (int run = 0; run < 3; run++) {
                acc.setDouble(0, 0);
                chip.run(orch -> {
                    for (int i = 0; i < 500; i++) {
                        try (Scope s1 = orch.scope(); Scope s2 = orch.scope(); Scope s3 = orch.scope();
                             Scope s4 = orch.scope()) {
                            orch.submit("inc", CoreType.AIV, ctx -> {
                                Tensor t = ctx.tensor(0);
                                t.setDouble(0, t.getDouble(0) + 1);
                                count.incrementAndGet();
                            }, Arg.inout(acc));
                        }
                        orch.submit("inc0", CoreType.AIC, ctx -> {
                            Tensor t = ctx.tensor(0);
                            t.setDouble(0, t.getDouble(0) + 1);
                        }, Arg.inout(acc));
                    }
                }, CallConfig.defaults().withRuntimeEnv(RuntimeEnv.defaults().withRingTaskWindow(0, 64, 64, 64)));
                assertThat(acc.getDouble(0)).isEqualTo(1000);
            }
            assertThat(count.get()).isEqualTo(1500);
        }
    }

    @Test
    void wideFanInAndFanOut() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            int width = 150;
            Tensor sum = Tensor.allocate(arena, DType.INT64, 1);
            Tensor copies = Tensor.allocate(arena, DType.INT64, width);
            for (int rep = 0; rep < 3; rep++) {
                chip.run(orch -> {
                    try (Scope s = orch.scope()) {
                        Arg[] ins = new Arg[width + 1];
                        for (int i = 0; i < width; i++) {
                            final int v = i;
                            long p = orch.submit("leaf", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, v),
                                    Arg.output(DType.INT64, 1));
                            ins[i] = Arg.input(orch.output(p, 0));
                        }
                        ins[width] = Arg.outputExisting(sum);
                        long join = orch.submit("join", CoreType.AIC, ctx -> {
                            long acc = 0;
                            for (int i = 0; i < width; i++) {
                                acc += (long) ctx.tensor(i).getDouble(0);
                            }
                            ctx.tensor(width).setDouble(0, acc);
                        }, ins);
                        for (int i = 0; i < width; i++) {
                            orch.submit("copy", CoreType.AIV, ctx -> ctx.tensor(1).setDouble(0, ctx.tensor(0).getDouble(0)),
                                    Arg.input(sum), Arg.outputExisting(copies.slice(new long[] {i}, new long[] {1})));
                        }
                        assertThat(Orchestrator.ringOf(join)).isEqualTo(1);
                    }
                }, CallConfig.defaults().withAicpuThreadNum(3));
                long expected = (long) width * (width - 1) / 2;
                assertThat(sum.getDouble(0)).isEqualTo(expected);
                for (int i = 0; i < width; i++) {
                    assertThat(copies.getDouble(i)).isEqualTo(expected);
                }
            }
        }
    }

    /**
     * A producer still running when its consumers are submitted: the first consumers wait inline in its slot, the
     * rest in dep-pool nodes; all run after it and see its value, and each wait took one dep-pool entry.
     */
    @Test
    void consumersOfARunningProducerInlineAndInNodesAllRunAfterIt() throws InterruptedException {
        int consumers = Ring.INLINE_FANOUTS + 3;
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.INT64, 1);
            Tensor seen = Tensor.allocate(arena, DType.INT64, consumers);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            RunReport report = chip.run(orch -> {
                try (Scope s = orch.scope()) {
                    orch.submit("producer", CoreType.AIV, ctx -> {
                        release.await();
                        ctx.tensor(0).setDouble(0, 42);
                    }, Arg.outputExisting(x));
                    for (int i = 0; i < consumers; i++) {
                        orch.submit("consumer", CoreType.AIC, ctx -> ctx.tensor(1).setDouble(0, ctx.tensor(0).getDouble(0)),
                                Arg.input(x), Arg.outputExisting(seen.slice(new long[] {i}, new long[] {1})));
                    }
                    release.countDown(); // every consumer was wired while the producer ran
                }
            }, CallConfig.defaults());
            for (int i = 0; i < consumers; i++) {
                assertThat(seen.getDouble(i)).as("consumer %d", i).isEqualTo(42);
            }
            assertThat(report.ring(1).depPoolMax()).isEqualTo(consumers);
        }
    }

    /**
     * Ready tasks are staged and published in batches; one submitted just before the orchestration turns to host
     * work (no further runtime call) must still run meanwhile: an idle scheduler thread takes it from the stage.
     */
    @Test
    void aTaskSubmittedBeforeLongHostWorkRunsDuringIt() {
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            for (int round = 0; round < 3; round++) { // also after the first run: the stage is empty again
                java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
                boolean[] ranDuringHostWork = new boolean[1];
                chip.run(orch -> {
                    orch.submit("signal", CoreType.AIV, ctx -> ran.countDown());
                    try {
                        ranDuringHostWork[0] = ran.await(5, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, CallConfig.defaults());
                assertThat(ranDuringHostWork[0]).as("round %d", round).isTrue();
            }
        }
    }
}
