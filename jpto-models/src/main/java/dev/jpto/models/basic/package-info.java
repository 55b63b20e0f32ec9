/**
 * The {@code basic.*} programs: vector add, matmul, softmax, RMSNorm and flash attention.
 */
package dev.jpto.models.basic;
