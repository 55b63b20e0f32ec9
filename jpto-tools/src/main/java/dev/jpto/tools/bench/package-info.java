/**
 * The benchmarks behind {@code jpto bench}: matmul engines against a measured peak and numpy, the runtime
 * against ForkJoinPool.
 */
package dev.jpto.tools.bench;
