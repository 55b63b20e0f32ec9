package dev.jpto.lib;

import dev.jpto.lib.models.basic.BasicPrograms;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import java.util.ArrayList;
import java.util.List;

/** The registry {@code jpto} uses: every model family adds its programs here. */
public final class Programs {
    private static final ProgramRegistry REGISTRY = build();

    private Programs() {
    }

    public static ProgramRegistry registry() {
        return REGISTRY;
    }

    private static ProgramRegistry build() {
        List<ProgramDef> all = new ArrayList<>(BasicPrograms.all());
        all.addAll(dev.jpto.lib.models.dsv4.kernels.Dsv4Programs.all());
        all.add(dev.jpto.lib.models.dsv4.kernels.MoePrograms.def());
        all.add(dev.jpto.lib.models.dsv4.kernels.Dsv4Layer.def());
        all.add(dev.jpto.lib.models.dsv4.kernels.Dsv4Mtp.def());
        all.addAll(dev.jpto.lib.models.l3.L3Programs.all());
        return new ProgramRegistry(all);
    }
}
