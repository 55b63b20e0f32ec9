package dev.jpto.models.l3;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import java.util.List;

/** The {@code l3.*} programs, registered like a user's: a {@link ProgramProvider} found by ServiceLoader. */
public final class L3Programs implements ProgramProvider {
    @Override
    public List<ProgramDef> programs() {
        return List.of(TiledMatmul.def());
    }
}
