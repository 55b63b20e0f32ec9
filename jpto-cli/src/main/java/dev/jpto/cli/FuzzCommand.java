package dev.jpto.cli;

import dev.jpto.tools.fuzz.FuzzSummary;
import dev.jpto.tools.fuzz.Fuzzer;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code jpto fuzz}: random programs (nested scopes, loops, overlapping views, every direction, intermediates) on
 * random ring sizes, platforms and thread counts, compiled, loaded and run on the chip, each compared with a
 * sequential reference; a finding prints its seed and a reduced reproducer.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run random programs x random ring sizes, platforms and thread counts against a sequential "
                + "reference.", "Each run must equal the reference or fail with a ring error its sizes explain, "
                + "within the deadline; anything else is a finding (exit 1), printed with its seed and a reduced "
                + "reproducer."})
final class FuzzCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Option(names = "--seconds", paramLabel = "N", description = "run for N seconds (0 = until --count is reached)")
    long seconds;

    @Option(names = "--count", paramLabel = "K", description = "run K programs (0 = until --seconds run out)")
    long count;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the first program; program i has seed S+i "
            + "(default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--deadline", paramLabel = "SECONDS", description = "a program that has not finished after this "
            + "long is a hang (default ${DEFAULT-VALUE})")
    long deadlineSeconds = 30;

    @Option(names = "--verbose", description = "one line per program, and stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("fuzz", top.err, verbose, () -> {
            if (seconds < 0 || count < 0 || deadlineSeconds <= 0) {
                throw new UsageException("--seconds and --count must be >= 0 and --deadline > 0: --seconds=" + seconds
                        + " --count=" + count + " --deadline=" + deadlineSeconds);
            }
            if (seconds == 0 && count == 0) {
                throw new UsageException("give --seconds N or --count K (or both), e.g. 'jpto fuzz --seconds 60' or "
                        + "'jpto fuzz --seed " + seed + " --count 1'");
            }
            Fuzzer.Settings s = Fuzzer.Settings.of(seed, count, Duration.ofSeconds(seconds)).withVerbose(verbose)
                    .withDeadline(Duration.ofSeconds(deadlineSeconds));
            FuzzSummary summary = Fuzzer.run(s, top.out);
            if (summary.wasInterrupted()) {
                top.err.println("jpto fuzz: interrupted after " + summary.programs() + " program(s); "
                        + (summary.findings() == 0 ? "no findings" : summary.findings() + " finding(s)") + " so far");
                return ExitCodes.INTERRUPTED;
            }
            return summary.findings() == 0 ? ExitCodes.PASS : ExitCodes.VALIDATION_FAIL;
        });
    }
}
