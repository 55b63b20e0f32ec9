package dev.jpto.runtime;

/** User code that builds the task graph; runs on the chip's orchestrator thread inside the root scope. */
@FunctionalInterface
public interface Orchestration {
    void orchestrate(Orchestrator orch) throws Exception;
}
