package dev.jpto.lib.load;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/** Calls providers and collects their programs; a provider that throws is a load error naming it and its origin. */
final class Providers {
    private Providers() {
    }

    /** A new instance of {@code type} (public, with a public no-argument constructor). */
    static ProgramProvider instantiate(Class<? extends ProgramProvider> type, String origin) {
        try {
            return type.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new ProgramLoadException(origin + ": " + type.getName() + " implements ProgramProvider but has no "
                    + "public no-argument constructor", e);
        } catch (InstantiationException | InvocationTargetException e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            throw new ProgramLoadException(origin + ": creating " + type.getName() + " failed: " + cause, cause);
        }
    }

    static List<ProgramDef> programs(ProgramProvider provider, String origin) {
        List<ProgramDef> defs;
        try {
            defs = provider.programs();
        } catch (RuntimeException e) {
            throw new ProgramLoadException(origin + ": " + provider.getClass().getName() + ".programs() failed: " + e,
                    e);
        }
        if (defs == null) {
            throw new ProgramLoadException(origin + ": " + provider.getClass().getName() + ".programs() returned null");
        }
        return new ArrayList<>(defs);
    }
}
