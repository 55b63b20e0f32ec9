package dev.jpto.cli;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.runtime.Platform;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("plan", top.err, verbose, () -> {
            ProgramSpec spec = program.spec(top.registry);
            top.out.println("[PLAN] " + spec.programName() + " preset=" + spec.preset());
            List<RingPlan> plans = new ArrayList<>();
            for (Program p : spec.chipPrograms()) {
                RingPlan plan = RingPlanner.plan(p);
                plans.add(plan);
                if (spec.l3().isPresent()) {
                    top.out.println("[PLAN] chip program " + p.name() + ":");
                }
                top.out.println(plan.table());
            }
            // an L3 program runs every chip call with one ring configuration: per ring the largest need
            RingPlan plan = plans.size() == 1 ? plans.getFirst() : RingPlan.covering(spec.programName(), plans);
            top.out.println("[PLAN] recommended: " + plan.runtimeCfgLine());
            RunConfig inForce = AutoRings.resolve(
                    RuntimeCfg.resolve(spec.runtimeCfg(), runtimeCfg, Platform.A2A3SIM, 0), plan);
            top.out.println("[PLAN] " + plan.advice(CallConfigs.from(inForce).runtimeEnv())
                    .map(a -> "NOT ENOUGH with the sizes in force: " + a)
                    .orElse("the sizes in force (default runtime_cfg " + spec.runtimeCfg() + " + --runtime-cfg "
                            + runtimeCfg + ") cover the plan"));
            return ExitCodes.PASS;
        });
    }
}
