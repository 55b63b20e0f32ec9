package dev.jpto.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code jpto completion bash|zsh}: picocli's completion script for every command, option and enum value, to be
 * sourced by the shell ({@code source <(jpto completion bash)}).
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print the shell completion script for jpto; load it with 'source <(jpto completion bash)'",
            "(or zsh) in the shell or its rc file."})
final class CompletionCommand implements Callable<Integer> {
    /** The shells picocli's script supports: bash natively, zsh through its bash-completion emulation. */
    enum Shell { bash, zsh }

    @ParentCommand
    JptoCommand top;

    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh")
    Shell shell;

    @Override
    public Integer call() {
        // one script for both: under zsh ($ZSH_VERSION) it loads bashcompinit itself, which provides bash's
        // complete/compgen; the argument is still required so that a later native zsh script needs no new syntax
        top.out.print(AutoComplete.bash("jpto", top.spec.commandLine()));
        top.out.flush();
        return ExitCodes.PASS;
    }
}
