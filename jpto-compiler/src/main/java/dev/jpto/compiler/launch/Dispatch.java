package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.exec.KernelInvoker;
import dev.jpto.compiler.exec.ProgramInterpreter;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.OsEnv;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.RunReport;
import java.util.List;
import java.util.Map;

/**
 * The single run path under every dispatch surface: a chip chosen by the RunConfig's host-only fields, and a
 * CallConfig from {@link CallConfigs#from} — nothing else. Surfaces differ only in how they get the program and
 * how often they call {@link #run}.
 */
final class Dispatch {
    private Dispatch() {
    }

    /** Opens the chip {@code config} names (platform, device, os_env). */
    static Chip open(RunConfig config) {
        return open(config, 1);
    }

    /** Opens the chip {@code config} names as one of {@code hostChips} chips running at once in this process. */
    static Chip open(RunConfig config, int hostChips) {
        return Chip.open(config.platform(), config.deviceId(),
                OsEnv.chipOptions(config.osEnv()).withHostChips(hostChips));
    }

    /**
     * Validates and converts {@code config} once for {@code program}, whose ring plan resolves {@code auto} ring
     * sizes ({@link AutoRings}); callers that run repeatedly reuse the result.
     */
    static CallConfig callConfig(RunConfig config, CompiledProgram program) {
        return callConfig(AutoRings.resolve(config, program.program()));
    }

    /** One CallConfig for several programs (L3); {@code auto} ring sizes cover every program's plan. */
    static CallConfig callConfig(RunConfig config, List<CompiledProgram> programs) {
        return callConfig(AutoRings.resolve(config, programs.stream().map(CompiledProgram::program).toList()));
    }

    private static CallConfig callConfig(RunConfig config) {
        return CallConfigs.from(config);
    }

    static RunReport run(Chip chip, CompiledProgram program, Map<String, Tensor> args, CallConfig call) {
        return run(chip, program, args, call, ProgramEngines.of(program));
    }

    /** Runs with {@code kernels} as every task's body: the program's engines, or {@link DryRun}'s empty ones. */
    static RunReport run(Chip chip, CompiledProgram program, Map<String, Tensor> args, CallConfig call,
                         KernelInvoker kernels) {
        Map<String, Tensor> bound = ProgramArgs.bind(program.program(), args);
        try {
            return chip.run(new ProgramInterpreter(program.program(), bound, kernels), call);
        } catch (ChipRuntimeException e) {
            throw RingAdvice.explain(e, program.program(), call);
        }
    }

    /** Opens the chip, runs once, closes it. */
    static RunReport runOnce(CompiledProgram program, Map<String, Tensor> args, RunConfig config) {
        return runOnce(program, args, config, ProgramEngines.of(program));
    }

    /** Opens the chip, runs once with {@code kernels} as the task bodies, closes it. */
    static RunReport runOnce(CompiledProgram program, Map<String, Tensor> args, RunConfig config,
                             KernelInvoker kernels) {
        CallConfig call = callConfig(config, program);
        ProgramArgs.bind(program.program(), args);
        try (Chip chip = open(config)) {
            return run(chip, program, args, call, kernels);
        }
    }

    /** The chip a worker holds must be the one the config names, opened with the same os_env. */
    static void checkSameChip(Chip chip, RunConfig config) {
        if (chip.platform() != config.platform() || chip.deviceId() != config.deviceId()) {
            throw new IllegalArgumentException("this worker holds chip " + chip.platform().text() + " device "
                    + chip.deviceId() + " but the run config asks for platform=" + config.platform().text()
                    + " device_id=" + config.deviceId() + "; open a ChipWorker for that chip or change the config");
        }
        // hostChips is how the chip was opened (alone or as one of an L3 run's chips), not part of os_env
        if (!OsEnv.chipOptions(config.osEnv()).withHostChips(chip.options().hostChips()).equals(chip.options())) {
            throw new IllegalArgumentException("this worker's chip was opened with options " + chip.options()
                    + " but the run config's os_env=" + config.osEnv() + " asks for "
                    + OsEnv.chipOptions(config.osEnv()) + "; open a ChipWorker with this config");
        }
    }
}
