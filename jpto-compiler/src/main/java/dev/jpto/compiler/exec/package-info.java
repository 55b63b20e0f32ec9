/** Execution of the orchestration IR on the runtime (internal). */
package dev.jpto.compiler.exec;
