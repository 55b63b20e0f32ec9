/**
 * Diagnostics of a run: swimlane traces, the dependency graph, argument dumps, per-task counters.
 */
package dev.jpto.runtime.dfx;
