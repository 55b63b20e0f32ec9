package dev.jpto.runtime;

/** What a task computes when a scheduler thread runs it on a logical core. */
@FunctionalInterface
public interface TaskBody {
    void execute(TaskContext ctx) throws Exception;
}
