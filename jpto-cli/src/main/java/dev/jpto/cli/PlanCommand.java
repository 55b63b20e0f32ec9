package dev.jpto.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.launch.DryRun;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.io.OutputStream;
import java.io.PrintStream;
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

    @Option(names = "--json", description = "print one JSON document (docs/schema/plan.schema.json) instead of "
            + "the tables; the exit code is the same")
    boolean json;

    @Override
    public Integer call() {
        JsonDocument doc = new JsonDocument("plan");
        // with --json the human lines go nowhere and the same facts go into the document
        PrintStream human = json ? new PrintStream(OutputStream.nullOutputStream()) : top.out;
        int code = Outcome.of("plan", top.err, verbose, () -> {
            ProgramSpec spec = program.spec(top, human);
            doc.root().put("program", spec.programName());
            doc.root().put("preset", spec.preset());
            human.println("[PLAN] " + spec.programName() + " preset=" + spec.preset());
            List<RingPlan> plans = new ArrayList<>();
            ArrayNode chipPlans = doc.root().putArray("chip_programs");
            for (Program p : spec.chipPrograms()) {
                RingPlan plan = RingPlanner.plan(p);
                plans.add(plan);
                chipPlans.addObject().put("name", p.name()).put("reads_data", p.hasReads())
                        .set("rings", PlanJson.rings(plan));
                if (spec.l3().isPresent()) {
                    human.println("[PLAN] chip program " + p.name() + ":");
                }
                human.println(plan.table());
                if (p.hasReads()) {
                    human.println("[PLAN] " + p.name() + " reads data at orchestration time (Orch.read): every read is "
                            + "taken at its declared bound, so this plan is an upper bound for it");
                }
            }
            // an L3 program runs every chip call with one ring configuration: per ring the largest need
            RingPlan plan = plans.size() == 1 ? plans.getFirst() : RingPlan.covering(spec.programName(), plans);
            human.println("[PLAN] recommended: " + plan.runtimeCfgLine());
            RunConfig inForce = AutoRings.resolve(
                    RuntimeCfg.resolve(spec.runtimeCfg(), runtimeCfg, Platform.A2A3SIM, 0), plan);
            Optional<String> notEnough = plan.advice(CallConfigs.from(inForce).runtimeEnv());
            human.println("[PLAN] " + notEnough.map(a -> "NOT ENOUGH with the sizes in force: " + a)
                    .orElse("the sizes in force (default runtime_cfg " + spec.runtimeCfg() + " + --runtime-cfg "
                            + runtimeCfg + ") cover the plan"));
            doc.root().set("recommended_runtime_cfg", JsonDocument.strings(plan.runtimeCfg()));
            doc.root().set("program_runtime_cfg", JsonDocument.strings(spec.runtimeCfg()));
            doc.root().set("user_runtime_cfg", JsonDocument.strings(runtimeCfg));
            doc.root().set("runtime_cfg_in_force", JsonDocument.strings(inForce.asMap()));
            doc.root().put("enough", notEnough.isEmpty());
            doc.root().put("advice", notEnough.orElse(null));
            if (measure) {
                ArrayNode measured = doc.root().putArray("measured");
                // each chip program dry-runs on its own, at the sizes in force (an L3 program's chips share them)
                for (int i = 0; i < plans.size(); i++) {
                    long t0 = System.nanoTime();
                    RunReport r = DryRun.run(Compiler.compileInMemory(spec.chipPrograms().get(i)), inForce);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    human.printf(Locale.ROOT, "[PLAN] measured%s: dry run on %s, empty kernels, sizes in force: %d"
                            + " tasks in %.3fs%n", spec.l3().isPresent() ? " (" + plans.get(i).program() + ")" : "",
                            inForce.platform().text(), r.tasksExecuted(), seconds);
                    human.print(plans.get(i).measuredTable(r));
                    measured.addObject().put("program", plans.get(i).program()).put("seconds", seconds)
                            .setAll(PlanJson.report(r));
                }
            }
            // a script gates on the exit code: sizes that would deadlock are a failed check, as in validation
            return notEnough.isPresent() ? ExitCodes.VALIDATION_FAIL : ExitCodes.PASS;
        }, doc::failed);
        if (json) {
            doc.print(top.out);
        }
        return code;
    }
}
