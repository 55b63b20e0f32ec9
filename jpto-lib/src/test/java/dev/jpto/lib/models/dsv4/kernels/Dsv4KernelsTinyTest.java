package dev.jpto.lib.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.models.dsv4.Dsv4Faults;
import dev.jpto.lib.models.dsv4.Dsv4Preset;
import dev.jpto.lib.models.dsv4.Dsv4Program;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/** The tiny presets through compile → run on the simulated chip, validated against the plain-Java golden. */
class Dsv4KernelsTinyTest {

    @Test
    void swaTinyMatchesTheGolden() {
        try (Arena arena = Arena.ofShared()) {
            Dsv4KernelRun r = Dsv4KernelRun.run(Dsv4Program.SWA, Dsv4Preset.tiny(), Dsv4Faults.NONE,
                    RunConfig.defaults(), arena);
            System.out.printf("SWA tiny: share relL2=%.5f gain=%.5f, x_out bad=%d%n", r.share().relL2(),
                    r.share().gain(), r.xOut().bad());
            assertThat(r.failures()).isEmpty();
        }
    }
}
