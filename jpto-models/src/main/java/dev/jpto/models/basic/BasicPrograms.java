package dev.jpto.models.basic;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import java.util.List;

/** The {@code basic.*} programs, registered like a user's: a {@link ProgramProvider} found by ServiceLoader. */
public final class BasicPrograms implements ProgramProvider {
    @Override
    public List<ProgramDef> programs() {
        return List.of(VectorAdd.def(), Matmul.def(), Softmax.def(), RmsNorm.def(), FlashAttention.def());
    }
}
