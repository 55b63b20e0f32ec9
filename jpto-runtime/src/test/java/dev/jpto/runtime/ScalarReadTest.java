package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Orchestration-time reads ({@link Orchestrator#readScalar}): they see the value their writers leave. */
@Timeout(30)
class ScalarReadTest {

    /** A kernel that sleeps, then stores {@code value} into element {@code index} of its first tensor. */
    private static TaskBody slowStore(long index, long value) {
        return ctx -> {
            Thread.sleep(30);
            ctx.tensor(0).setDouble(index, value);
        };
    }

    @Test
    void readWaitsForEveryWriterOfTheElement() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor counts = Tensor.allocate(arena, DType.INT32, 4);
            List<Long> seen = new ArrayList<>();
            chip.run(orch -> {
                for (int round = 1; round <= 3; round++) {
                    // two writers in a row on the same element: the read must see the second one's value
                    orch.submit("w1", CoreType.AIV, slowStore(2, 10L * round), Arg.inout(counts.slice(
                            new long[] {2}, new long[] {1}).reshape(1)));
                    orch.submit("w2", CoreType.AIV, ctx -> ctx.tensor(0).setDouble(0, ctx.tensor(0).getDouble(0) + 1),
                            Arg.inout(counts.slice(new long[] {2}, new long[] {1})));
                    seen.add(orch.readScalar(counts.slice(new long[] {2}, new long[] {1})));
                }
            }, CallConfig.defaults());
            assertThat(seen).containsExactly(11L, 21L, 31L);
        }
    }

    @Test
    void readOfAHeapOutputWaitsForItsCreator() {
        try (Chip chip = Chip.open(Platform.A5SIM, 0)) {
            long[] got = new long[1];
            chip.run(orch -> {
                long t = orch.submit("count", CoreType.AIV, slowStore(5, 42), Arg.output(DType.INT64, 8));
                Tensor out = orch.output(t, 0);
                got[0] = orch.readScalar(out.slice(new long[] {5}, new long[] {1}));
            }, CallConfig.defaults());
            assertThat(got[0]).isEqualTo(42);
        }
    }

    @Test
    void aFailedWriterEndsTheReadWithItsError() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor counts = Tensor.allocate(arena, DType.INT32, 1);
            assertThatThrownBy(() -> chip.run(orch -> {
                orch.submit("boom", CoreType.AIV, ctx -> {
                    throw new IllegalStateException("kernel broke");
                }, Arg.outputExisting(counts));
                orch.readScalar(counts);
            }, CallConfig.defaults())).isInstanceOf(ChipRuntimeException.class).hasMessageContaining("kernel broke");
            // the chip is usable again, and an unwritten element reads as it is
            counts.setDouble(0, 3);
            long[] got = new long[1];
            chip.run(orch -> got[0] = orch.readScalar(counts), CallConfig.defaults());
            assertThat(got[0]).isEqualTo(3);
        }
    }

    /** A read and a write whose awaited task outlasts the tensor data timeout fail with code 8 naming it. */
    @Test
    void aWaitLongerThanTheTensorDataTimeoutIsCode8() {
        ChipOptions options = ChipOptions.defaults().withTensorDataTimeout(Duration.ofMillis(200));
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0, options)) {
            Tensor counts = Tensor.allocate(arena, DType.INT32, 1);
            TaskBody slow = ctx -> Thread.sleep(1_000);
            assertThatThrownBy(() -> chip.run(orch -> {
                orch.submit("slow_writer", CoreType.AIV, slow, Arg.inout(counts));
                orch.readScalar(counts);
            }, CallConfig.defaults())).isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                assertThat(e.error()).isEqualTo(ErrorCode.TENSOR_WAIT_TIMEOUT);
                assertThat(e.getMessage()).contains("=8 TENSOR_WAIT_TIMEOUT", "readScalar of", "kernel 'slow_writer'",
                        "tensor data timeout, 200 ms");
            });
            assertThatThrownBy(() -> chip.run(orch -> {
                orch.submit("slow_reader", CoreType.AIV, slow, Arg.input(counts));
                orch.writeScalar(counts, 7);
            }, CallConfig.defaults())).isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                assertThat(e.error()).isEqualTo(ErrorCode.TENSOR_WAIT_TIMEOUT);
                assertThat(e.getMessage()).contains("writeScalar of", "kernel 'slow_reader'");
            });
            // a wait within the bound still succeeds, on the same chip
            long[] got = new long[1];
            chip.run(orch -> {
                orch.submit("quick", CoreType.AIV, slowStore(0, 9), Arg.inout(counts));
                got[0] = orch.readScalar(counts);
            }, CallConfig.defaults());
            assertThat(got[0]).isEqualTo(9);
        }
    }

    @Test
    void aTensorDataTimeoutMustBePositive() {
        assertThatThrownBy(() -> ChipOptions.defaults().withTensorDataTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tensor data timeout must be > 0: PT0S (default 15000 ms)");
    }

    @Test
    void onlyOneIntegerElementCanBeRead() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor floats = Tensor.allocate(arena, DType.FP32, 1);
            Tensor ints = Tensor.allocate(arena, DType.INT32, 2);
            assertThatThrownBy(() -> chip.run(orch -> orch.readScalar(floats), CallConfig.defaults()))
                    .isInstanceOf(ChipRuntimeException.class).hasMessageContaining("one-element view of an integer");
            assertThatThrownBy(() -> chip.run(orch -> orch.readScalar(ints), CallConfig.defaults()))
                    .isInstanceOf(ChipRuntimeException.class).hasMessageContaining("one-element view of an integer");
        }
    }
}
