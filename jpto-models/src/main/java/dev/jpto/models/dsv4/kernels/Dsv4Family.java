package dev.jpto.models.dsv4.kernels;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code dsv4.*} programs (prefill attention, MoE, layer, MTP), registered like a user's: a
 * {@link ProgramProvider} found by ServiceLoader.
 */
public final class Dsv4Family implements ProgramProvider {
    @Override
    public List<ProgramDef> programs() {
        List<ProgramDef> all = new ArrayList<>(Dsv4Programs.all());
        all.add(MoePrograms.def());
        all.add(Dsv4Layer.def());
        all.add(Dsv4Mtp.def());
        return all;
    }
}
