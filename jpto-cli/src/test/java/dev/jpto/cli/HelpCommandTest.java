package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code jpto help [COMMAND]}: the usage of a command, and an unknown one named with the list of commands. */
class HelpCommandTest {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    private int jpto(String... args) {
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void helpForAnUnknownCommandNamesItAndListsTheCommands() {
        assertThat(jpto("help", "nosuch")).isEqualTo(ExitCodes.USAGE);
        String commands = String.join(", ", JptoCommand.commandLine().getSubcommands().keySet());
        assertThat(commands).startsWith("help, list, run, compile, exec");
        assertThat(errBuf.toString(StandardCharsets.UTF_8)).isEqualTo("jpto help: unknown command 'nosuch'; "
                + "commands: " + commands + "; see 'jpto --help'" + System.lineSeparator());
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void helpForACommandPrintsItsUsage() {
        assertThat(jpto("help", "exec")).isZero();
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).startsWith("Usage: jpto exec ").contains("--outputs=DIR");
        assertThat(errBuf.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
