package dev.jpto.runtime;

/**
 * How a task uses a tensor argument; decides the dependencies the TensorMap finds (spec c.1).
 * <ul>
 * <li>{@code INPUT} — read: waits for the tensor's creator and for earlier overlapping writers.</li>
 * <li>{@code OUTPUT} — a new buffer the runtime allocates on the heap ring (use {@link Arg#output}).</li>
 * <li>{@code INOUT} — read and written: waits like INPUT and becomes the writer later readers wait for.</li>
 * <li>{@code OUTPUT_EXISTING} — written into an existing buffer without reading it: waits only for its creator.</li>
 * <li>{@code NO_DEP} — passed through without any TensorMap dependency (only the creator edge).</li>
 * </ul>
 */
public enum Direction { INPUT, OUTPUT, INOUT, OUTPUT_EXISTING, NO_DEP }
