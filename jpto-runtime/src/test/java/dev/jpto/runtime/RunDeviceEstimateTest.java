package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every chip run carries its estimated device time ({@link RunReport#deviceMicros}), replayed from the costs the
 * tasks report and the producers recorded at submit. Expected values are computed by hand from the a2a3 table of
 * docs/device-model.md: 1850 MHz (1850 cycles = 1 µs), submit 0.874 µs per task, dispatch 0.3 µs, completion 0.6 µs.
 */
@Timeout(60)
@SuppressWarnings("try") // a scope opened so that its task retires when it closes
class RunDeviceEstimateTest {
    private static final long ONE_US = 1850;

    private static TaskBody costing(long cycles) {
        return ctx -> ctx.recordDeviceCost(cycles, 0);
    }

    @Test
    void aChainWaitsForItsProducerInDeviceTime() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 16);
            RunReport r = chip.run(orch -> {
                orch.submit("a", CoreType.AIV, costing(ONE_US), Arg.outputExisting(x));
                orch.submit("b", CoreType.AIV, costing(2 * ONE_US), Arg.input(x));
            }, CallConfig.defaults());
            // a: submitted 0.874, starts 1.174, ends 2.174, done 2.774; b: ready 2.774, starts 3.074, ends 5.074,
            // done 5.674
            assertThat(r.deviceMicros()).hasValueCloseTo(5.674, within(1e-6));
            assertThat(r.deviceField()).isEqualTo("device_us=5.7 (estimated)");
        }
    }

    @Test
    void independentTasksOverlapOnTwoCores() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 16);
            Tensor y = Tensor.allocate(arena, DType.FP32, 16);
            RunReport r = chip.run(orch -> {
                orch.submit("a", CoreType.AIV, costing(ONE_US), Arg.outputExisting(x));
                orch.submit("b", CoreType.AIV, costing(ONE_US), Arg.outputExisting(y));
            }, CallConfig.defaults());
            // b does not wait for a: submitted 1.748, starts 2.048, ends 3.048, done 3.648
            assertThat(r.deviceMicros()).hasValueCloseTo(3.648, within(1e-6));
        }
    }

    @Test
    void aProducerThatRetiredOnTheHostStillOrdersItsConsumer() {
        int fillers = 20;
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.INT32, 1);
            Tensor y = Tensor.allocate(arena, DType.FP32, fillers);
            RunReport r = chip.run(orch -> {
                try (Scope s = orch.scope()) {
                    orch.submit("a", CoreType.AIV, costing(100 * ONE_US), Arg.outputExisting(x));
                }
                orch.readScalar(x); // a has completed on the host and its scope has closed
                try (Scope s = orch.scope()) {
                    // more submits with tensors on a's ring than the TensorMap's sync interval: a is retired there,
                    // so the runtime itself wires no edge from a to b
                    for (int i = 0; i < fillers; i++) {
                        orch.submit("filler", CoreType.AIC, ctx -> { },
                                Arg.outputExisting(y.slice(new long[] {i}, new long[] {1})));
                    }
                    orch.submit("b", CoreType.AIV, costing(2 * ONE_US), Arg.input(x));
                }
            }, CallConfig.defaults());
            // a: submitted 0.874, starts 1.174, ends 101.174, done 101.774. b (the 22nd task): submitted 19.228,
            // waits for a: starts 102.074, ends 104.074, done 104.674 (without the edge it would be done at 22.128)
            assertThat(r.deviceMicros()).hasValueCloseTo(104.674, within(1e-6));
        }
    }

    @Test
    void aReaderWaitsOnlyForTheWritersOfTheSliceItReads() {
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 2, 16);
            Tensor row0 = x.slice(new long[] {0, 0}, new long[] {1, 16});
            Tensor row1 = x.slice(new long[] {1, 0}, new long[] {1, 16});
            RunReport r = chip.run(orch -> {
                orch.submit("a", CoreType.AIV, costing(ONE_US), Arg.outputExisting(row0));
                orch.submit("b", CoreType.AIV, costing(10 * ONE_US), Arg.outputExisting(row1));
                orch.submit("c", CoreType.AIV, costing(20 * ONE_US), Arg.input(row0));
            }, CallConfig.defaults());
            // a: done 2.774; b: submitted 1.748, ends 12.048, done 12.648; c: submitted 2.622, waits for a only:
            // starts 3.074, ends 23.074, done 23.674 (33.548 had it waited for b)
            assertThat(r.deviceMicros()).hasValueCloseTo(23.674, within(1e-6));
        }
    }

    @Test
    void aTaskWithoutAReportedCostCostsOnlyTheRuntimeOverheads() {
        try (Chip chip = Chip.open(Platform.A5SIM, 0)) {
            RunReport r = chip.run(orch -> orch.submit("empty", CoreType.AIC, ctx -> { }), CallConfig.defaults());
            // submitted 0.874, starts 1.174, ends at once, done 1.774
            assertThat(r.deviceMicros()).hasValueCloseTo(1.774, within(1e-6));
        }
    }

    @Test
    void theEstimateOutlivesTheChipButNotTheNextRun() {
        RunReport first;
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            first = chip.run(orch -> orch.submit("a", CoreType.AIV, costing(ONE_US)), CallConfig.defaults());
            RunReport second = chip.run(orch -> orch.submit("a", CoreType.AIV, costing(ONE_US)),
                    CallConfig.defaults());
            assertThatThrownBy(first::deviceMicros).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has run again since");
            RunReport kept = second.withDeviceTimeResolved();
            chip.close();
            // a: submitted 0.874, starts 1.174, ends 2.174, done 2.774
            assertThat(second.deviceMicros()).hasValueCloseTo(2.774, within(1e-6));
            assertThat(kept.deviceMicros()).hasValueCloseTo(2.774, within(1e-6));
        }
    }
}
