/**
 * The orchestrator: submit steps, scopes, back-pressure on full rings, reclamation, deadlock advice and scope
 * statistics.
 */
package dev.jpto.runtime.orch;
