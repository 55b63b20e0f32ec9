package dev.jpto.cli;

import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.DryRun;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 * Exits 1 when the sizes in force do not cover the plan (NOT ENOUGH), so that a script can gate on it.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Static per-ring requirement of a program (task window, heap bytes, dep-pool entries) and the"
                + " runtime_cfg that covers it; checks the sizes in force against it.",
            "Exit 0 the sizes in force cover the plan, 1 NOT ENOUGH, 2 usage or bad config, 3 runtime error."})
final class PlanCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Mixin
    ProgramOptions program = new ProgramOptions();

    @Option(names = "--runtime-cfg", paramLabel = "KEY=VALUE", parameterConsumer = RuntimeCfgEntries.class,
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
            ProgramSpec spec = program.spec(top);
            top.out.println("[PLAN] " + spec.programName() + " preset=" + spec.preset());
            List<RingPlan> plans = new ArrayList<>();
            for (Program p : spec.chipPrograms()) {
                RingPlan plan = RingPlanner.plan(p);
                plans.add(plan);
                if (spec.l3().isPresent()) {
                    top.out.println("[PLAN] chip program " + p.name() + ":");
                }
                top.out.println(plan.table());
                if (p.hasReads()) {
                    top.out.println("[PLAN] " + p.name() + " reads data at orchestration time (Orch.read): every read is "
                            + "taken at its declared bound, so this plan is an upper bound for it");
                }
            }
            // an L3 program runs every chip call with one ring configuration: per ring the largest need
            RingPlan plan = plans.size() == 1 ? plans.getFirst() : RingPlan.covering(spec.programName(), plans);
            top.out.println("[PLAN] recommended: " + plan.runtimeCfgLine());
            RunConfig inForce = AutoRings.resolve(
                    RuntimeCfg.resolve(spec.runtimeCfg(), runtimeCfg, Platform.A2A3SIM, 0), plan);
            Optional<String> notEnough = plan.advice(CallConfigs.from(inForce).runtimeEnv());
            top.out.println("[PLAN] " + notEnough.map(a -> "NOT ENOUGH with the sizes in force: " + a)
                    .orElse("the sizes in force (default runtime_cfg " + spec.runtimeCfg() + " + --runtime-cfg "
                            + runtimeCfg + ") cover the plan"));
            if (measure) {
                // each chip program dry-runs on its own, at the sizes in force (an L3 program's chips share them)
                for (int i = 0; i < plans.size(); i++) {
                    long t0 = System.nanoTime();
                    RunReport r = DryRun.run(Compiler.compileInMemory(spec.chipPrograms().get(i)), inForce);
                    top.out.printf(Locale.ROOT, "[PLAN] measured%s: dry run on %s, empty kernels, sizes in force: %d"
                            + " tasks in %.3fs%n", spec.l3().isPresent() ? " (" + plans.get(i).program() + ")" : "",
                            inForce.platform().text(), r.tasksExecuted(), (System.nanoTime() - t0) / 1e9);
                    top.out.print(plans.get(i).measuredTable(r));
                }
            }
            // a script gates on the exit code: sizes that would deadlock are a failed check, as in validation
            return notEnough.isPresent() ? ExitCodes.VALIDATION_FAIL : ExitCodes.PASS;
        });
    }
}
