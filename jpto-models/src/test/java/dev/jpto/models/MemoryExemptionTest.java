package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.OnChipMemory;
import dev.jpto.compiler.ir.Program;
import dev.jpto.lib.registry.MemoryExemption;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.KernelPlacement;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every registered program fits its chip's on-chip buffers except the kernels its own spec exempts
 * ({@link ProgramSpec#memoryExemption()}), and each exempt kernel really overflows at some preset: so the
 * exemptions are exact and only shrink as kernels are re-tiled. Checked on a2a3sim, whose UB and L0C are the
 * smaller of the two chips'.
 */
class MemoryExemptionTest {
    @Test
    void eachProgramExemptsExactlyItsKernelsThatDoNotFit() {
        Map<String, Set<String>> overflowing = new TreeMap<>();
        Map<String, Set<String>> exempt = new TreeMap<>();
        for (ProgramDef def : Programs.registry().all()) {
            for (String preset : def.presets()) {
                ProgramSpec spec = def.spec(preset);
                if (!spec.memoryExemption().isEmpty()) {
                    assertThat(spec.memoryExemption().reason()).as(def.name()).isNotBlank();
                    exempt.computeIfAbsent(def.name(), n -> new TreeSet<>()).addAll(spec.memoryExemption().kernels());
                }
                for (Program p : spec.chipPrograms()) {
                    for (KernelPlacement k : OnChipMemory.place(p, Platform.A2A3SIM)) {
                        if (!k.overflows().isEmpty()) {
                            overflowing.computeIfAbsent(def.name(), n -> new TreeSet<>()).add(k.kernel());
                        }
                    }
                }
            }
        }
        assertThat(exempt).as("each program's memory exemption against its kernels that overflow a2a3sim's buffers")
                .isEqualTo(overflowing);
    }

    @Test
    void anExemptionNeedsAReasonAndKernelsOfTheProgram() {
        assertThatThrownBy(() -> MemoryExemption.of(" ", Set.of("k")))
                .hasMessageContaining("needs a reason");
        ProgramSpec spec = Programs.registry().get("basic.vector_add").spec("tiny");
        assertThat(spec.memoryExemption()).isEqualTo(MemoryExemption.NONE);
        assertThatThrownBy(() -> spec.withMemoryExemption(MemoryExemption.of("why", Set.of("no_such_kernel"))))
                .hasMessageContaining("basic.vector_add preset tiny: memory exemption names kernel 'no_such_kernel'");
    }
}
