package dev.jpto.lib.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The built-in programs: every {@link ProgramProvider} that jpto's own modules declare (in {@code module-info.java}
 * on the module path, in {@code META-INF/services} on the class path), found through ServiceLoader, the same
 * mechanism that loads a user's jar. A user's programs join them with {@link ProgramRegistry#with}.
 */
public final class Programs {
    private static final ProgramRegistry REGISTRY = build();

    private Programs() {
    }

    public static ProgramRegistry registry() {
        return REGISTRY;
    }

    private static ProgramRegistry build() {
        List<ProgramDef> all = new ArrayList<>();
        for (ProgramProvider p : ServiceLoader.load(ProgramProvider.class, Programs.class.getClassLoader())) {
            all.addAll(p.programs());
        }
        if (all.isEmpty()) {
            throw new IllegalStateException("no built-in program providers found: jpto-models is not on the module path "
                    + "(its module-info 'provides' or META-INF/services/" + ProgramProvider.class.getName() + ")");
        }
        return new ProgramRegistry(all);
    }
}
