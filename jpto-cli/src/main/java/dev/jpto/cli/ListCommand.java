package dev.jpto.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.lib.load.UserPrograms;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
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

    @Option(names = "--json", description = "print one JSON document (docs/schema/list.schema.json) instead of "
            + "the table")
    boolean json;

    @Override
    public Integer call() {
        JsonDocument doc = new JsonDocument("list");
        int code = Outcome.of("list", top.err, false, () -> {
            ProgramRegistry registry = paths.registry(top);
            if (paths.sourcePath != null) {
                UserPrograms.Loaded l = paths.load(top, paths.sourcePath, null,
                        json ? new PrintStream(OutputStream.nullOutputStream()) : top.out);
                registry = registry.with(l.programs(), l.origin());
            }
            List<ProgramRegistry.Entry> all = registry.entries();
            if (json) {
                ArrayNode programs = doc.root().putArray("programs");
                all.forEach(e -> programs.add(program(e)));
                return ExitCodes.PASS;
            }
            int nameWidth = all.stream().mapToInt(e -> e.def().name().length()).max().orElse(0);
            int presetWidth = all.stream().mapToInt(e -> presets(e.def()).length()).max().orElse(0);
            for (ProgramRegistry.Entry e : all) {
                ProgramDef p = e.def();
                top.out.println(pad(p.name(), nameWidth) + "  " + pad(presets(p), presetWidth) + "  "
                        + p.description() + (e.origin().equals(ProgramRegistry.BUILT_IN) ? "" : "  [" + e.origin()
                        + "]"));
            }
            return ExitCodes.PASS;
        }, doc::failed);
        if (json) {
            doc.print(top.out);
        }
        return code;
    }

    private static ObjectNode program(ProgramRegistry.Entry e) {
        ProgramDef p = e.def();
        ObjectNode o = JsonDocument.object();
        o.put("name", p.name());
        o.put("description", p.description());
        ArrayNode presets = o.putArray("presets");
        p.presets().forEach(presets::add);
        o.put("default_preset", p.defaultPreset());
        o.put("origin", e.origin());
        o.put("built_in", e.origin().equals(ProgramRegistry.BUILT_IN));
        return o;
    }

    private static String presets(ProgramDef p) {
        return String.join(",", p.presets().stream().map(n -> n.equals(p.defaultPreset()) ? n + "*" : n).toList());
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
