/**
 * Static ring planning: {@link dev.jpto.compiler.plan.RingPlanner#plan} runs a program's orchestration without
 * kernels and returns a {@link dev.jpto.compiler.plan.RingPlan} — per ring the task window, heap bytes and
 * dep-pool entries the program needs, and the runtime_cfg to use ({@code ring_heap=auto} resolves to it).
 */
package dev.jpto.compiler.plan;
