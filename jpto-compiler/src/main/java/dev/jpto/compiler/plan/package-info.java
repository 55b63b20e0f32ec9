/**
 * Static ring planning: {@link dev.jpto.compiler.plan.RingPlanner#plan} runs a program's orchestration without
 * kernels and returns a {@link dev.jpto.compiler.plan.RingPlan} — per ring (0..3) the task window, heap bytes and
 * dep-pool entries the program needs ({@link dev.jpto.compiler.plan.RingNeed}), and the runtime_cfg to use.
 *
 * <p>What a {@code jpto plan PROGRAM [--preset P]} command does with it:
 * <pre>{@code
 * RingPlan plan = RingPlanner.plan(program);       // the registry's Program for the preset
 * out.print(plan.table());                         // per-ring table + "runtime_cfg: ring_task_window=… ring_heap=… ring_dep_pool=…"
 * plan.runtimeCfg();                               // the same as a map in RunConfig's key vocabulary
 * plan.advice(CallConfigs.from(runConfig).runtimeEnv())   // Optional: what the given --runtime-cfg lacks
 * }</pre>
 * {@code ring_task_window=auto}, {@code ring_heap=auto} and {@code ring_dep_pool=auto} in a RunConfig resolve to
 * the same recommendation at dispatch ({@code dev.jpto.compiler.run.AutoRings}).
 */
package dev.jpto.compiler.plan;
