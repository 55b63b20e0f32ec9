package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Dsv4SmokeTest {
    @Test
    void tinyRuns() {
        for (Dsv4Program prog : Dsv4Program.values()) {
            try (Arena arena = Arena.ofConfined()) {
                long t0 = System.nanoTime();
                Dsv4Preset p = Dsv4Preset.tiny();
                Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(prog, p), 1, arena);
                long t1 = System.nanoTime();
                Dsv4GoldenResult r = Dsv4Golden.run(prog, p, in, arena);
                long t2 = System.nanoTime();
                double share = rms(r.attnShare());
                double xo = rms(r.expected("x_out"));
                System.out.printf("%s gen %.2fs golden %.2fs share rms %.3g x_out rms %.3g%n", prog,
                        (t1 - t0) / 1e9, (t2 - t1) / 1e9, share, xo);
                assertThat(share).isGreaterThan(0);
            }
        }
    }

    static double rms(Tensor t) {
        double s = 0;
        for (long i = 0; i < t.numel(); i++) {
            s += t.getDouble(i) * t.getDouble(i);
        }
        return Math.sqrt(s / t.numel());
    }
}
