package dev.jpto.lib.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.HardwareSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PMU table's roofline columns against hand-computed fractions from the a2a3sim table: the cube does
 * 16·16·16 fp16 MACs a cycle (8192 FLOPs), the vector unit 256 B a cycle (64 fp32 elements), a cube core loads
 * GM→L1 at 135 GiB/s and a vector core stores UB→GM at 188.46 GiB/s, at 1850 MHz.
 */
class PmuSummaryTest {
    @TempDir
    Path tmp;

    @Test
    void theRooflineIsTheKernelsWorkAtPeakOverItsDeviceCycles() throws IOException {
        Path csv = tmp.resolve("pmu.csv");
        Files.writeString(csv, """
                thread_id,core_id,core_type,task_id,kernel,start_ns,wall_ns,device_cycles,bytes_read,bytes_written,\
                flops,event_type
                0,0,AIC,0x1,mm,10,1000,1000,39177,0,4096000,2
                0,1,AIC,0x2,mm,20,1000,1000,39177,0,4096000,2
                1,0,AIV,0x3,add,30,500,1000,0,10938,16000,2
                1,1,AIV,0x4,empty,40,500,0,0,0,0,2
                """);
        List<PmuSummary.Kernel> kernels = PmuSummary.read(csv);
        HardwareSpec spec = HardwareSpec.of(Platform.A2A3SIM);

        PmuSummary.Roofline mm = kernels.get(0).roofline(spec);
        // 8,192,000 FLOPs / 8192 per cycle = 1000 of 2000 cycles; 78,354 B / (135 GiB/s / 1850 MHz) = 1000 cycles
        assertThat(mm.core()).isEqualTo(CoreType.AIC);
        assertThat(mm.cube()).isCloseTo(0.5, within(1e-4));
        assertThat(mm.gm()).isCloseTo(0.5, within(1e-4));
        assertThat(mm.vector()).isNaN();
        PmuSummary.Roofline add = kernels.get(1).roofline(spec);
        // 16,000 FLOPs / 64 per cycle = 250 of 1000 cycles; 10,938 B / (188.46 GiB/s / 1850 MHz) = 100 cycles
        assertThat(add.vector()).isCloseTo(0.25, within(1e-6));
        assertThat(add.gm()).isCloseTo(0.1, within(1e-4));
        assertThat(add.cube()).isNaN();

        List<String> table = PmuSummary.table(kernels, spec);
        assertThat(table.getFirst().split("\\s+")).endsWith("device_us", "cube%", "vec%", "gm%");
        // 2000 cycles at 1850 MHz = 1.081 us
        assertThat(table.get(1).split("\\s+")).endsWith("1.081", "50.0", "-", "50.0");
        assertThat(table.get(2).split("\\s+")).endsWith("0.541", "-", "25.0", "10.0");
        assertThat(table.get(3).split("\\s+")).endsWith("0.000", "-", "-", "-");
    }
}
