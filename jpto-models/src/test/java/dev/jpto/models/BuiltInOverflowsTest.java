package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.OnChipMemory;
import dev.jpto.compiler.ir.Program;
import dev.jpto.lib.load.BuiltInOverflows;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.KernelPlacement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every registered program fits its chip's on-chip buffers except the kernels {@link BuiltInOverflows} lists, and
 * each listed kernel really overflows at some preset: so the list is exact and can only shrink as kernels are
 * re-tiled. Checked on a2a3sim, whose UB and L0C are the smaller of the two chips'.
 */
class BuiltInOverflowsTest {
    @Test
    void theExceptionListIsExactlyTheBuiltInKernelsThatDoNotFit() {
        Map<String, Set<String>> overflowing = new TreeMap<>();
        for (ProgramDef def : Programs.registry().all()) {
            for (String preset : def.presets()) {
                for (Program p : chipPrograms(def.spec(preset))) {
                    for (KernelPlacement k : OnChipMemory.place(p, Platform.A2A3SIM)) {
                        if (!k.overflows().isEmpty()) {
                            overflowing.computeIfAbsent(def.name(), n -> new TreeSet<>()).add(k.kernel());
                        }
                    }
                }
            }
        }
        Map<String, Set<String>> listed = new TreeMap<>();
        BuiltInOverflows.programs().forEach(p -> listed.put(p, new TreeSet<>(BuiltInOverflows.kernels(p))));
        assertThat(listed).as("BuiltInOverflows against the kernels that overflow a2a3sim's buffers")
                .isEqualTo(overflowing);
    }

    @Test
    void aUserProgramHasNoException() {
        assertThat(BuiltInOverflows.kernels("my.program")).isEmpty();
        assertThat(BuiltInOverflows.programs()).allMatch(p -> Programs.registry().names().contains(p));
    }

    private static List<Program> chipPrograms(ProgramSpec spec) {
        List<Program> programs = new ArrayList<>();
        switch (spec.body()) {
            case ProgramSpec.Body.Chip c -> programs.add(c.program());
            case ProgramSpec.Body.L3 l -> programs.addAll(l.program().chipPrograms().values());
        }
        return programs;
    }
}
