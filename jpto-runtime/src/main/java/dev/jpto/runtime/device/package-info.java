/**
 * The device model: a hardware table per platform, a per-task cost from a kernel's op stream, and a replay of a
 * run's task graph on the platform's cores in simulated time (docs/device-model.md).
 */
package dev.jpto.runtime.device;
