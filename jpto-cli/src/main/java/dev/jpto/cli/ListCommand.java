package dev.jpto.cli;

import dev.jpto.lib.load.UserPrograms;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code jpto list}: the programs, their presets (default marked *), what they compute and where they come from. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the programs with their presets (the default one marked *) and where each comes from "
                + "(built-in, a --program-path entry, a --source-path directory).")
final class ListCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Mixin
    ProgramPathOptions paths = new ProgramPathOptions();

    @Override
    public Integer call() {
        return Outcome.of("list", top.err, false, () -> {
            ProgramRegistry registry = paths.registry(top);
            if (paths.sourcePath != null) {
                UserPrograms.Loaded l = paths.load(top, paths.sourcePath, null);
                registry = registry.with(l.programs(), l.origin());
            }
            List<ProgramRegistry.Entry> all = registry.entries();
            int nameWidth = all.stream().mapToInt(e -> e.def().name().length()).max().orElse(0);
            int presetWidth = all.stream().mapToInt(e -> presets(e.def()).length()).max().orElse(0);
            for (ProgramRegistry.Entry e : all) {
                ProgramDef p = e.def();
                top.out.println(pad(p.name(), nameWidth) + "  " + pad(presets(p), presetWidth) + "  "
                        + p.description() + (e.origin().equals(ProgramRegistry.BUILT_IN) ? "" : "  [" + e.origin()
                        + "]"));
            }
            return ExitCodes.PASS;
        });
    }

    private static String presets(ProgramDef p) {
        return String.join(",", p.presets().stream().map(n -> n.equals(p.defaultPreset()) ? n + "*" : n).toList());
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
