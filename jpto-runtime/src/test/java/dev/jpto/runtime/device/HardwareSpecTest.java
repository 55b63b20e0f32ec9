package dev.jpto.runtime.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import org.junit.jupiter.api.Test;

/** The hardware table: consistent with Platform and with the published chip figures it is derived from. */
class HardwareSpecTest {
    @Test
    void coreCountsAreThePlatformsAndTwinsShareATable() {
        HardwareSpec a2 = HardwareSpec.of(Platform.A2A3SIM);
        HardwareSpec a5 = HardwareSpec.of(Platform.A5SIM);
        assertThat(a2.aicCores()).isEqualTo(24);
        assertThat(a2.aivCores()).isEqualTo(48);
        assertThat(a5.aicCores()).isEqualTo(36);
        assertThat(a5.aivCores()).isEqualTo(72);
        assertThat(HardwareSpec.of(Platform.A2A3).clockMhz()).isEqualTo(a2.clockMhz());
        assertThat(HardwareSpec.of(Platform.A5).buffers()).isEqualTo(a5.buffers());
    }

    @Test
    void peakCubeThroughputMatchesThePublishedChipFigures() {
        HardwareSpec a2 = HardwareSpec.of(Platform.A2A3SIM);
        // 24 cores x 16x16x16 MAC/cycle x 2 FLOP x 1.85 GHz = 363.7 TFLOPS (910B: 313-376 TFLOPS fp16 by SKU)
        assertThat(a2.peakCubeFlops(DType.FP16)).isCloseTo(363.7248e12, within(1e9));
        assertThat(a2.peakCubeFlops(DType.BF16)).isEqualTo(a2.peakCubeFlops(DType.FP16));
        assertThat(a2.peakCubeFlops(DType.FP32)).isEqualTo(a2.peakCubeFlops(DType.FP16) / 4);
        assertThat(a2.peakCubeFlops(DType.INT8)).isEqualTo(a2.peakCubeFlops(DType.FP16) * 2);
        assertThat(a2.cube().fp8()).as("a2a3 has no fp8 cube").isNull();
        HardwareSpec a5 = HardwareSpec.of(Platform.A5SIM);
        // Ascend 950: 1 PFLOPS fp8 published; 36 x 16x16x32 x 2 x 1.7 GHz = 1.003 PFLOPS
        assertThat(2 * a5.cube().fp8().macsPerCycle() * 36 * 1.7e9).isCloseTo(1e15, within(0.01e15));
    }

    @Test
    void ratesAndBuffersFromTheOriginalsConstants() {
        HardwareSpec a2 = HardwareSpec.of(Platform.A2A3SIM);
        // GM->UB 100.9 GiB/s at 1.85 GHz = 58.56 B/cycle; UB->GM 188.46 GiB/s = 109.38 B/cycle
        assertThat(a2.loadBytesPerCycle(CoreType.AIV)).isCloseTo(58.562, within(0.001));
        assertThat(a2.storeBytesPerCycle(CoreType.AIV)).isCloseTo(109.383, within(0.001));
        assertThat(a2.buffers()).isEqualTo(new HardwareSpec.Buffers(196608, 524288, 65536, 65536, 131072));
        assertThat(HardwareSpec.of(Platform.A5SIM).buffers())
                .isEqualTo(new HardwareSpec.Buffers(262144, 524288, 65536, 65536, 262144));
        assertThat(a2.cyclesToPs(1850)).isEqualTo(1_000_000);
        assertThat(a2.chipTransferPs(1_600_000)).isEqualTo(1_000_000); // 1.6 MB at 1.6 TB/s = 1 us
    }

    @Test
    void aDtypeTheCubeDoesNotTakeIsRefusedNamingTheAllowedOnes() {
        assertThatThrownBy(() -> HardwareSpec.of(Platform.A2A3SIM).cube().of(DType.INT32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no cube rate for int32 inputs; the cube takes fp16, bf16, fp32, int8");
    }
}
