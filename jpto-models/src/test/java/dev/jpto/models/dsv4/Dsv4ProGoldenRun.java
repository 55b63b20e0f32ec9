package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The golden at the demo and Pro presets (minutes, GBs): run by hand with
 * {@code mvn -pl jpto-models -am test -Dtest=Dsv4ProGoldenRun -Ddsv4.big=true}; skipped in the normal suite.
 */
@EnabledIfSystemProperty(named = "dsv4.big", matches = "true")
class Dsv4ProGoldenRun {
    @Test
    void proAndDemo() {
        String presets = System.getProperty("dsv4.presets", "demo,pro");
        for (String name : presets.split(",")) {
            for (Dsv4Program prog : Dsv4Program.values()) {
                try (Arena arena = Arena.ofConfined()) {
                    Dsv4Preset p = Dsv4Preset.byName(name);
                    long t0 = System.nanoTime();
                    Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(prog, p), 7, arena);
                    long t1 = System.nanoTime();
                    Dsv4GoldenResult r = Dsv4Golden.run(prog, p, in, arena);
                    long t2 = System.nanoTime();
                    Runtime rt = Runtime.getRuntime();
                    System.out.printf("%s %s: inputs %.1fs, golden %.1fs, share rms %.3g, x_out rms %.3g, "
                                    + "java heap used %d MiB%n", name, prog, (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                            Dsv4SmokeTest.rms(r.attnShare()), Dsv4SmokeTest.rms(r.expected("x_out")),
                            (rt.totalMemory() - rt.freeMemory()) >> 20);
                    assertThat(Dsv4SmokeTest.rms(r.attnShare())).isGreaterThan(0);
                }
            }
        }
    }
}
