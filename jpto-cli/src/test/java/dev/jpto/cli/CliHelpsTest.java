package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A CLI that helps (issue 26 §4): "did you mean" for programs, presets and runtime_cfg keys, -V on every
 * subcommand, bare {@code jpto} as a usage error, shell completion scripts, and plan's exit code for sizes that
 * do not cover the plan.
 */
@Timeout(120)
class CliHelpsTest {
    private final CliSession cli = new CliSession();

    @Test
    void aMisspeltProgramGetsASuggestion() {
        assertThat(cli.run("run", "basic.matmull", "--preset", "tiny")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err().strip()).startsWith("jpto run: unknown program 'basic.matmull'; valid programs: ")
                .endsWith("(see 'jpto list'); did you mean 'basic.matmul'?");
        assertThat(cli.run("plan", "softmax")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("did you mean 'basic.softmax'?");
        assertThat(cli.run("plan", "basic.zzzzzz")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("unknown program 'basic.zzzzzz'").doesNotContain("did you mean");
    }

    @Test
    void aMisspeltPresetGetsASuggestion() {
        assertThat(cli.run("plan", "basic.matmul", "--preset", "tinny")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err().strip()).isEqualTo("jpto plan: --preset tinny is not a preset of basic.matmul; valid presets: "
                + "tiny, tiny_bf16, demo, demo_fp32, large; did you mean 'tiny'?");
    }

    @Test
    void aMisspeltRuntimeCfgKeyGetsASuggestion() {
        assertThat(cli.run("plan", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_hep=1MiB"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err().strip()).startsWith("jpto plan: ").contains("unknown run config key 'ring_hep'; valid keys: ")
                .endsWith("; did you mean 'ring_heap'?");
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "run", "compile", "exec", "plan", "bench", "fuzz", "new", "completion", "report",
        "analyze", "dump"})
    void dashCapitalVOnASubcommandPrintsTheVersion(String command) {
        assertThat(cli.run(command, "-V")).isZero();
        String version = new JptoCommand.Version().getVersion()[0];
        assertThat(version).startsWith("jpto ").doesNotContain("unknown version");
        assertThat(cli.out().strip()).isEqualTo(version);
        assertThat(cli.run(command, "--version")).isZero();
        assertThat(cli.out().strip()).isEqualTo(version);
    }

    @Test
    void bareJptoPrintsTheUsageAndIsAUsageError() {
        assertThat(cli.run()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).startsWith("Usage: jpto ").contains("Commands:", "list", "run", "completion");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void completionPrintsPicocliScriptsForBashAndZsh() {
        assertThat(cli.run("completion", "bash")).isZero();
        String bash = cli.out();
        assertThat(bash).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_jpto -o default jpto")
                .contains("local commands=\"help list run compile exec plan bench fuzz new sweep completion report "
                        + "analyze dump\"")
                .contains("function _picocli_jpto_plan()", "--runtime-cfg", "--preset");
        assertThat(cli.run("completion", "zsh")).isZero();
        // picocli's script serves zsh through bashcompinit, which it loads when $ZSH_VERSION is set
        assertThat(cli.out()).isEqualTo(bash).contains("ZSH_VERSION", "autoload -U +X bashcompinit && bashcompinit");
        assertThat(cli.run("completion", "fish")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).startsWith("jpto completion: Invalid value for positional parameter at index 0 (SHELL): "
                + "expected one of [bash, zsh] (case-sensitive) but was 'fish'");
    }

    @Test
    void planExitsOneWhenTheSizesInForceAreNotEnough() {
        assertThat(cli.run("plan", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB"))
                .isEqualTo(ExitCodes.VALIDATION_FAIL);
        assertThat(cli.out()).contains("[PLAN] NOT ENOUGH with the sizes in force").contains("in force 64KiB");
        assertThat(cli.err()).isEmpty();
        assertThat(cli.run("plan", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=1MiB")).isZero();
        assertThat(cli.out()).contains("cover the plan").doesNotContain("NOT ENOUGH");
    }
}
