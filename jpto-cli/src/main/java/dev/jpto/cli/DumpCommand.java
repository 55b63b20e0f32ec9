package dev.jpto.cli;

import dev.jpto.cli.report.ArgsDump;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code jpto dump ls|show DIR}: browses the args dump a run with {@code --dump-args} left in DIR. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Browse the args dump of a run with --dump-args: 'ls' lists the dumped arguments, 'show' "
                + "prints their statistics and first values.", "Exit 0, 2 for a bad DIR or filter."},
        subcommands = {DumpCommand.Ls.class, DumpCommand.Show.class})
final class DumpCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Override
    public Integer call() {
        top.err.println("jpto dump: give a subcommand: ls DIR or show DIR (jpto dump --help)");
        return ExitCodes.USAGE;
    }

    /** DIR and the filters both subcommands take. */
    static final class Selection {
        @Parameters(index = "0", paramLabel = "DIR", description = "the --output-dir of a run with --dump-args")
        Path dir;

        @Option(names = "--task", paramLabel = "ID", description = "only this task, e.g. 0x0000000100000007")
        String task;

        @Option(names = "--kernel", paramLabel = "K", description = "only tasks of this kernel")
        String kernel;

        @Option(names = "--arg", paramLabel = "N", description = "only argument N (0-based)")
        Integer arg;

        @Option(names = "--verbose", description = "show stack traces of errors")
        boolean verbose;

        ArgsDump dump() throws java.io.IOException {
            if (!Files.isDirectory(dir)) {
                throw new UsageException(dir + " is not a directory; give the --output-dir of a run with --dump-args");
            }
            return ArgsDump.read(dir);
        }

        List<ArgsDump.Entry> select(ArgsDump dump) {
            return dump.select(Optional.ofNullable(task), Optional.ofNullable(kernel),
                    arg == null ? OptionalInt.empty() : OptionalInt.of(arg));
        }
    }

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "List the dumped arguments (and filter them).")
    static final class Ls implements Callable<Integer> {
        @ParentCommand
        DumpCommand parent;

        @Mixin
        Selection selection = new Selection();

        @Override
        public Integer call() {
            JptoCommand top = parent.top;
            return Outcome.of("dump ls", top.err, selection.verbose, () -> {
                ArgsDump.table(selection.select(selection.dump())).forEach(top.out::println);
                top.out.flush();
                return ExitCodes.PASS;
            });
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print each selected argument's shape, min, max, mean, NaN and Inf counts and first values.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        DumpCommand parent;

        @Mixin
        Selection selection = new Selection();

        @Option(names = "--count", paramLabel = "N", defaultValue = "16",
                description = "values printed per argument (default ${DEFAULT-VALUE})")
        int count;

        @Override
        public Integer call() {
            JptoCommand top = parent.top;
            return Outcome.of("dump show", top.err, selection.verbose, () -> {
                if (selection.task == null && selection.kernel == null) {
                    throw new UsageException("show reads tensors: narrow it with --task ID or --kernel K "
                            + "('jpto dump ls DIR' lists them)");
                }
                if (count < 0) {
                    throw new UsageException("--count must be >= 0: --count " + count);
                }
                ArgsDump dump = selection.dump();
                dump.show(selection.select(dump), count).forEach(top.out::println);
                top.out.flush();
                return ExitCodes.PASS;
            });
        }
    }
}
