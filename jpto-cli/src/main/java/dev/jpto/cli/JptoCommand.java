package dev.jpto.cli;

import dev.jpto.compiler.run.RunConfigKeys;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.registry.ProgramRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The top-level {@code jpto} command; its subcommands are the verbs of DESIGN.md. */
@Command(name = "jpto",
        mixinStandardHelpOptions = true,
        versionProvider = JptoCommand.Version.class,
        description = "Write, run, size, debug and benchmark tile programs on a simulated AI-accelerator chip.",
        subcommands = {CommandLine.HelpCommand.class, ListCommand.class, RunCommand.class, CompileCommand.class,
                ExecCommand.class, PlanCommand.class, BenchCommand.class, FuzzCommand.class,
                NewCommand.class, SweepCommand.class, WorkerCommand.class, CompletionCommand.class, ReportCommand.class,
                AnalyzeCommand.class, DumpCommand.class})
public final class JptoCommand implements Callable<Integer> {
    /** Exit code for bad flags, values or configuration. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where commands write their log and their errors (System.out/err, or a test's buffers). */
    PrintStream out = System.out;
    PrintStream err = System.err;
    /** The programs {@code list}, {@code run} and {@code compile} know. */
    ProgramRegistry registry = Programs.registry();
    /** The environment ($JPTO_PROGRAM_PATH, $JPTO_CACHE_DIR; a test's own map). */
    java.util.Map<String, String> env = System.getenv();

    /** The command line on System.out/err (picocli's own writers may be replaced with setOut/setErr). */
    static CommandLine commandLine() {
        return commandLine(System.out, System.err, Programs.registry());
    }

    static CommandLine commandLine(PrintStream out, PrintStream err, ProgramRegistry registry) {
        return commandLine(out, err, registry, System.getenv());
    }

    static CommandLine commandLine(PrintStream out, PrintStream err, ProgramRegistry registry,
                                   java.util.Map<String, String> env) {
        JptoCommand top = new JptoCommand();
        top.env = env;
        top.out = out;
        top.err = err;
        top.registry = registry;
        CommandLine cl = new CommandLine(top);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.registerConverter(Path.class, new PathConverter()); // every subcommand's path options
        for (CommandLine sub : cl.getSubcommands().values()) {
            // subcommands have -V from mixinStandardHelpOptions but no provider of their own: without this, empty
            sub.getCommandSpec().versionProvider(new Version());
        }
        List<String> keys = new ArrayList<>(List.of("", "--runtime-cfg keys (RunConfig's fields): key, default, "
                + "values"));
        RunConfigKeys.help().forEach(line -> keys.add("  " + line));
        for (String name : new String[] {"run", "exec", "plan"}) {
            // the keys, defaults and rules come from RunConfig's components and RingField, never from a list here
            cl.getSubcommands().get(name).getCommandSpec().usageMessage().footer(keys.toArray(String[]::new));
        }
        cl.setParameterExceptionHandler((ex, args) -> {
            // one line: what was wrong, a suggestion when picocli has one, and where the allowed values are listed
            String name = ex.getCommandLine().getCommandSpec().qualifiedName();
            // picocli says "Value for option option '--runtime-cfg' ..." for a map entry without '='
            String line = name + ": " + ex.getMessage().replace("option option '", "option '");
            if (ex instanceof CommandLine.UnmatchedArgumentException u) {
                if (ex.getCommandLine().getParent() == null && !u.isUnknownOption()) {
                    line = name + ": " + unknownCommand(ex.getCommandLine(), u.getUnmatched().getFirst());
                } else if (!u.getSuggestions().isEmpty()) {
                    line += " (did you mean " + String.join(" or ", u.getSuggestions()) + "?)";
                }
            } else if (ex.getArgSpec() == null && ex.getValue() != null
                    && ex.getMessage().startsWith("Unknown subcommand '")) {
                // picocli's help command reports "Unknown subcommand 'x'." on the command it was asked about
                line = name + " help: " + unknownCommand(ex.getCommandLine(), ex.getValue());
            }
            ex.getCommandLine().getErr().println(line + "; see '" + name + " --help'");
            return EXIT_USAGE;
        });
        return cl;
    }

    /** "unknown command 'x'; commands: help, list, …" for a subcommand name {@code cl} does not have. */
    private static String unknownCommand(CommandLine cl, String given) {
        return "unknown command '" + given + "'; commands: " + String.join(", ", cl.getSubcommands().keySet());
    }

    /** Bare {@code jpto}: no command is a usage error, so the usage goes to stderr and the exit code is 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    /** Reads the project version that Maven writes into the jar. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"jpto " + number() + " (Java " + Runtime.version() + ")"};
        }

        /** The project version, e.g. 0.1.0-SNAPSHOT. */
        String number() {
            Properties p = new Properties();
            try (InputStream in = JptoCommand.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return p.getProperty("version", "(unknown version)");
        }
    }
}
