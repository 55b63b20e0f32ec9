package dev.jpto.cli.report;

import dev.jpto.runtime.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code jpto analyze DIR}: the critical path, where the cores waited, and each ring's peak, as text lines. */
public final class Analysis {
    private Analysis() {
    }

    /**
     * The lines for the run in {@code dir}; parts whose files are missing say which flag writes them.
     *
     * @throws IllegalArgumentException when {@code dir} holds no run
     */
    public static List<String> of(Path dir) throws IOException {
        RunDir d = RunDir.read(dir);
        List<String> out = new ArrayList<>();
        d.run().ifPresent(r -> out.add(r.path("program").asText() + " --preset " + r.path("preset").asText()
                + " on " + r.path("platform").asText() + ": " + (r.has("error")
                ? "stopped, " + r.path("error").path("code").asText("error") : r.path("passed").asBoolean()
                ? "PASS" : "FAIL")));
        if (d.deps().isPresent() && d.host().isPresent()) {
            critical(out, "host", CriticalPath.of(d.deps().get(), d.host().get()), d.host().get());
            d.device().ifPresent(dev -> critical(out, "device (estimated)", CriticalPath.of(d.deps().get(), dev), dev));
            for (SchedulerIdle s : SchedulerIdle.of(d.host().get(), d.deps().get())) {
                double idle = s.idleReadyUs() + s.idleEmptyUs();
                out.add(f("%s: %d, %d tasks, busy %.1f us; idle %.1f us, of which %.1f (%.1f%%) with ready "
                        + "work waiting (scheduler overhead) and %.1f with nothing ready (summed over the %s)",
                        s.executors(), s.count(), s.tasks(), s.busyUs(), idle, s.idleReadyUs(),
                        idle == 0 ? 0 : 100 * s.idleReadyUs() / idle, s.idleEmptyUs(), s.executors()));
            }
            if (d.host().get().submittedUs().isEmpty()) {
                out.add("  (ready = all producers finished; the trace has no submit times: --runtime-cfg "
                        + "enable_chip_swimlane=4 or --report adds them)");
            }
        } else {
            out.add("critical path and scheduler: need deps.json and chip_swimlane.json (--report, or "
                    + "--enable-dep-gen --enable-chip-swimlane)");
        }
        if (d.ringTimeline().isPresent()) {
            for (RingPeak p : RingPeak.of(d.ringTimeline().get())) {
                out.add(f("ring %d: heap peak %s of %s (%.1f%%) at %.3f ms, %s; task slots peak %d of %d, "
                        + "dep-pool peak %d of %d", p.ring(), Sizes.readable(p.heapPeak()),
                        Sizes.readable(p.heapCapacity()), 100.0 * p.heapPeak() / p.heapCapacity(), p.atUs() / 1000,
                        p.site().map(s -> "set in the scope at depth " + p.depth() + " opened at " + s)
                                .orElse("scope unknown (scope marks were dropped)"),
                        p.tasksPeak(), p.taskWindow(), p.depsPeak(), p.depPool()));
            }
        } else {
            out.add("ring peaks: need scope_stats/ring_timeline.json (--report or --enable-scope-stats)");
        }
        return out;
    }

    private static void critical(List<String> out, String clock, CriticalPath c, Trace t) {
        double wall = t.spanUs();
        out.add(f("critical path (%s): %d tasks, %.1f us = %.1f%% of the %.1f us from first start to last end",
                clock, c.tasks().size(), c.lengthUs(), wall == 0 ? 0 : 100 * c.lengthUs() / wall, wall));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
