/**
 * The chip itself: one facade over the orchestrator, the rings and the scheduler, and its reserved memory.
 */
package dev.jpto.runtime.chip;
