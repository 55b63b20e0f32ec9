package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.exec.EngineInvoker;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The engines that run each compiled program's kernels. A compiled program is data; its engines keep per-thread
 * tiles between runs, so they belong to the program for as long as it is reachable (weak keys: a program nobody
 * holds takes its engines with it) and live here, in the room that runs programs.
 */
final class ProgramEngines {
    private static final Map<CompiledProgram, EngineInvoker> ENGINES = Collections.synchronizedMap(new WeakHashMap<>());

    private ProgramEngines() {
    }

    static EngineInvoker of(CompiledProgram program) {
        return ENGINES.computeIfAbsent(program, p -> EngineInvoker.best());
    }
}
