/**
 * The scheduler: ready queues, scheduler threads running tasks on logical cores, wake-ups, the error latch
 * and the diagnostics a stuck run prints.
 */
package dev.jpto.runtime.sched;
