/**
 * The DeepSeek-V4 prefill programs as DSL kernels and orchestrations (docs/dsv4-decomposition.md), and their
 * registry entries.
 */
package dev.jpto.models.dsv4.kernels;
