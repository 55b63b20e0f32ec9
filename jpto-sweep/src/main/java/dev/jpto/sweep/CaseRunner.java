package dev.jpto.sweep;

import dev.jpto.compiler.WorkDirException;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.JitConfigException;
import dev.jpto.lib.runner.MemoryBudget;
import dev.jpto.lib.runner.OutputCheck;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * Runs one case on this host the way {@code jpto run PROGRAM --preset P --runtime-cfg … -p PLATFORM --seed N
 * --bench R} does: the same {@link GoldenRunner#runJit} with the same RunSpec, and the same exit codes (0 PASS,
 * 1 FAIL, 2 refused configuration, 3 chip error, 130 interrupted).
 */
final class CaseRunner {
    private final ProgramRefs refs;
    private final String member;
    private final MemoryBudget memory;

    /** @param memory what one case may allocate: its share of the host when several run at once */
    CaseRunner(ProgramRefs refs, String member, MemoryBudget memory) {
        this.refs = refs;
        this.member = member;
        this.memory = memory;
    }

    /** The default budget split evenly between {@code parallel} cases, so that together they stay within it. */
    static MemoryBudget share(int parallel) {
        MemoryBudget host = MemoryBudget.ofPhysicalMemory();
        return parallel == 1 ? host : new MemoryBudget(Math.max(1, host.bytes() / parallel), host.origin()
                + ", shared by " + parallel + " cases at once (--max-parallel)");
    }

    CaseResult run(SweepCase c) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        try {
            ProgramDef def = refs.resolve(c.program());
            RunSpec spec = RunSpec.defaults(out).withPlatform(Platform.parse(c.platform()), 0).withSeed(c.seed())
                    .withBench(c.bench(), dev.jpto.lib.runner.Progress.none()).withMemory(memory);
            RunResult r = GoldenRunner.runJit(def.spec(c.preset()), spec, c.runtimeCfg());
            RunReport report = r.benchmark().map(b -> b.last()).orElse(r.report());
            Map<String, Long> stages = new LinkedHashMap<>();
            r.stageNanos().forEach((k, v) -> stages.put(k, v / 1_000_000));
            return result(c, member, r.passed() ? CaseResult.PASS : CaseResult.FAIL, r.passed() ? 0 : 1, "", "",
                    r.outputs().stream().map(OutputCheck::line).toList(), stages,
                    r.benchmark().map(b -> b.medianUs()).orElse(-1.0), report.deviceMicros().orElse(-1),
                    report.rings().stream().map(RunReport.Ring::heapMax).toList(),
                    report.rings().stream().map(RunReport.Ring::heapBytes).toList());
        } catch (ChipRuntimeException e) {
            int exit = e.error() == ErrorCode.CANCELLED ? 130 : 3;
            return error(c, exit, e.error().name(), e.getMessage());
        } catch (CancellationException e) {
            return error(c, 130, ErrorCode.CANCELLED.name(), String.valueOf(e.getMessage()));
        } catch (JitConfigException | WorkDirException | IllegalArgumentException e) {
            return error(c, 2, "BAD_CONFIG", e.getMessage());
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) { // one case must not end the sweep
            return error(c, 3, e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
        }
    }

    /** The result of a case whose task failed outside the run (e.g. the member could not take it). */
    static CaseResult failed(SweepCase c, String member, Throwable t) {
        return error(c, member, 3, t.getClass().getSimpleName(), String.valueOf(t.getMessage()));
    }

    /** The result of a case not run to its end because the members running it were lost. */
    static CaseResult lost(SweepCase c, String member, String message) {
        return error(c, member, 3, Dispatcher.WORKER_LOST, message);
    }

    private CaseResult error(SweepCase c, int exit, String code, String message) {
        return error(c, member, exit, code, message);
    }

    private static CaseResult error(SweepCase c, String member, int exit, String code, String message) {
        return result(c, member, CaseResult.ERROR, exit, code, message, List.of(), Map.of(), -1, -1, List.of(),
                List.of());
    }

    private static CaseResult result(SweepCase c, String member, String outcome, int exit, String code, String message,
                              List<String> verdicts, Map<String, Long> stages, double effectiveUs,
                              double deviceUs, List<Long> heapMax, List<Long> heap) {
        return new CaseResult(c.id(), c.name(), c.preset(), c.runtimeCfg(), c.platform(), c.seed(), c.expect(),
                outcome, exit, code, message, verdicts, stages, effectiveUs, deviceUs, heapMax, heap, member);
    }
}
