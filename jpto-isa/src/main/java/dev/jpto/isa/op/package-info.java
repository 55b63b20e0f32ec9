/**
 * The tile op set: one record per operand shape, parameterised by element functions, with index and scalar
 * operands.
 */
package dev.jpto.isa.op;
