package dev.jpto.lib.models.basic;

import dev.jpto.lib.registry.ProgramDef;
import java.util.List;

/** The {@code basic.*} programs. */
public final class BasicPrograms {
    private BasicPrograms() {
    }

    public static List<ProgramDef> all() {
        return List.of(VectorAdd.def(), Matmul.def(), Softmax.def(), RmsNorm.def(), FlashAttention.def());
    }
}
