package dev.jpto.cli;

import dev.jpto.lib.registry.ProgramDef;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code jpto list}: the registered programs, their presets (default marked *) and what they compute. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the programs with their presets (the default one marked *).")
final class ListCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Override
    public Integer call() {
        List<ProgramDef> all = top.registry.all();
        int nameWidth = all.stream().mapToInt(p -> p.name().length()).max().orElse(0);
        int presetWidth = all.stream().mapToInt(p -> presets(p).length()).max().orElse(0);
        for (ProgramDef p : all) {
            top.out.println(pad(p.name(), nameWidth) + "  " + pad(presets(p), presetWidth) + "  " + p.description());
        }
        return ExitCodes.PASS;
    }

    private static String presets(ProgramDef p) {
        return String.join(",", p.presets().stream().map(n -> n.equals(p.defaultPreset()) ? n + "*" : n).toList());
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
