package dev.jpto.cli;

import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.DryRun;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code jpto plan PROGRAM}: the static per-ring requirement (task slots, heap bytes, dep entries), from running
 * the orchestration symbolically, and whether the sizes in force (the program's default runtime_cfg plus any
 * {@code --runtime-cfg}) cover it — the answer before the run, instead of run, deadlock, double, run again.
 * {@code --measure} checks the plan against the runtime itself: a {@link DryRun} at the sizes in force.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Static per-ring requirement of a program (task window, heap bytes, dep-pool entries) and the"
                + " runtime_cfg that covers it; checks the sizes in force against it.")
final class PlanCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Mixin
    ProgramOptions program = new ProgramOptions();

    @Option(names = "--runtime-cfg", paramLabel = "KEY=VALUE",
            description = "sizes to check against the plan, as for 'jpto run' (repeatable; e.g. ring_heap=256MiB)")
    Map<String, String> runtimeCfg = new LinkedHashMap<>();

    @Option(names = "--measure", description = "also dry-run the orchestration on the chip at the sizes in force"
            + " (empty kernel bodies: no inputs, golden or tile math) and print its high-water marks next to the plan;"
            + " a ring deadlock there fails with the runtime's message (exit 3)")
    boolean measure;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("plan", top.err, verbose, () -> {
            ProgramSpec spec = program.spec(top.registry);
            RingPlan plan = RingPlanner.plan(spec.program());
            top.out.println("[PLAN] " + spec.programName() + " preset=" + spec.preset());
            top.out.println(plan.table());
            top.out.println("[PLAN] recommended: " + plan.runtimeCfgLine());
            RunConfig inForce = AutoRings.resolve(
                    RuntimeCfg.resolve(spec.runtimeCfg(), runtimeCfg, Platform.A2A3SIM, 0), spec.program());
            top.out.println("[PLAN] " + plan.advice(CallConfigs.from(inForce).runtimeEnv())
                    .map(a -> "NOT ENOUGH with the sizes in force: " + a)
                    .orElse("the sizes in force (default runtime_cfg " + spec.runtimeCfg() + " + --runtime-cfg "
                            + runtimeCfg + ") cover the plan"));
            if (measure) {
                long t0 = System.nanoTime();
                RunReport r = DryRun.run(Compiler.compileInMemory(spec.program()), inForce);
                top.out.printf(Locale.ROOT, "[PLAN] measured: dry run on %s, empty kernels, sizes in force: %d tasks"
                        + " in %.3fs%n", inForce.platform().text(), r.tasksExecuted(), (System.nanoTime() - t0) / 1e9);
                top.out.print(plan.measuredTable(r));
            }
            return ExitCodes.PASS;
        });
    }
}
