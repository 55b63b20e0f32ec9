package dev.jpto.lib.models.l3;

import dev.jpto.lib.registry.ProgramDef;
import java.util.List;

/** The {@code l3.*} programs. */
public final class L3Programs {
    private L3Programs() {
    }

    public static List<ProgramDef> all() {
        return List.of(TiledMatmul.def());
    }
}
