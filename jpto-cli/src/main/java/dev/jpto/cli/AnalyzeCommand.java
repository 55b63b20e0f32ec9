package dev.jpto.cli;

import dev.jpto.cli.report.Analysis;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code jpto analyze DIR}: the numbers behind a run's report, as text. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Print what bounded the run in its --output-dir DIR: the critical path (length, share of the "
                + "wall time), how long cores sat idle with ready work (scheduler overhead) and without, and each "
                + "ring's peak with the scope that set it.",
            "Exit 0, 2 when DIR holds no run."})
final class AnalyzeCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Parameters(index = "0", paramLabel = "DIR",
            description = "the --output-dir of a 'jpto run' with --report (or --enable-dep-gen, "
                    + "--enable-chip-swimlane, --enable-scope-stats)")
    Path dir;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("analyze", top.err, verbose, () -> {
            Analysis.of(dir).forEach(top.out::println);
            top.out.flush();
            return ExitCodes.PASS;
        });
    }
}
