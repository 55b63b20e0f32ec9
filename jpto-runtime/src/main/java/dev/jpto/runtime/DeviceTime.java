package dev.jpto.runtime;

/**
 * A run's estimated device time (docs/device-model.md), computed on first use: the runtime records each task's
 * device cost and producers cheaply while it runs, and replays the graph on the chip's cores only when asked.
 */
public interface DeviceTime {
    /**
     * The estimated device time in microseconds.
     *
     * @throws IllegalStateException when the chip has run again since, so that this run's record is gone
     */
    double micros();
}
