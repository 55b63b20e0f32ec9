package dev.jpto.cli;

import dev.jpto.cli.report.ReportPage;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code jpto report DIR}: one self-contained HTML page of the run whose output dir is DIR. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write DIR/report.html from the files a run left in its --output-dir DIR: summary, ring usage "
                + "over time, swimlanes with the critical path, per-kernel table and roofline, dependency graph, and "
                + "for a failed run what waited for what. One file, opens offline.",
            "Exit 0, 2 when DIR holds no run."})
final class ReportCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Parameters(index = "0", paramLabel = "DIR",
            description = "the --output-dir of a 'jpto run' (best with --report; any DFX files it has are used)")
    Path dir;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("report", top.err, verbose, () -> {
            // no lock: DIR is only read, and the page replaces report.html in one step
            printWritten(top.out, ReportPage.write(dir));
            return ExitCodes.PASS;
        });
    }

    /** {@code [REPORT] DIR/report.html (1.2 MiB, 0.31 s)}. */
    static void printWritten(PrintStream out, ReportPage.Written w) {
        out.println(String.format(Locale.ROOT, "[REPORT] %s (%s, %.2f s)", w.file(),
                dev.jpto.runtime.Sizes.readable(w.bytes()), w.nanos() / 1e9));
        out.flush();
    }
}
