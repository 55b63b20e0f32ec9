/**
 * Engines that execute tile ops: the scalar reference engine, the Vector API engine that must agree with it
 * bit for bit, and the operand rules both check before writing anything.
 */
package dev.jpto.isa.engine;
