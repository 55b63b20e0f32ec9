/**
 * The orchestration IR (records and sealed interfaces), its {@link dev.jpto.compiler.ir.Verifier}, printer and
 * passes ({@link dev.jpto.compiler.ir.Passes#standard()}).
 */
package dev.jpto.compiler.ir;
