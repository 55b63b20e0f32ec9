/**
 * The simulated chip's API: platforms, the orchestration and its arguments, call configuration and ring
 * sizes, the run report, and the error codes a run fails with.
 */
package dev.jpto.runtime;
