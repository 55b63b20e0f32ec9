package dev.jpto.runtime;

/** An orchestration scope (try-with-resources). Closing it releases its tasks' scope references. */
public interface Scope extends AutoCloseable {
    @Override
    void close();
}
