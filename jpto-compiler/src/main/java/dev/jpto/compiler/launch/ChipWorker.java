package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.util.Map;

/**
 * Holds one open chip and runs programs on it repeatedly (rings are kept between runs of the same sizes).
 * Each run's CallConfig comes from its RunConfig; the RunConfig must name this worker's chip.
 */
public final class ChipWorker implements AutoCloseable {
    private final Chip chip;
    private final RunConfig opened;

    private ChipWorker(Chip chip, RunConfig opened) {
        this.chip = chip;
        this.opened = opened;
    }

    /** A worker on the chip {@code config} names (platform, device_id, os_env); {@code config} is its default. */
    public static ChipWorker open(RunConfig config) {
        return new ChipWorker(Dispatch.open(config), config);
    }

    /** A worker on {@code platform} device {@code deviceId}, default chip options. */
    public static ChipWorker open(Platform platform, int deviceId) {
        return open(RunConfig.defaults().withPlatform(platform).withDeviceId(deviceId));
    }

    public Platform platform() {
        return chip.platform();
    }

    public int deviceId() {
        return chip.deviceId();
    }

    /** Runs with the config this worker was opened with. */
    public RunReport run(CompiledProgram program, Map<String, Tensor> args) {
        return run(program, args, opened);
    }

    /** Runs once; {@code config} must name this worker's chip. */
    public RunReport run(CompiledProgram program, Map<String, Tensor> args, RunConfig config) {
        Dispatch.checkSameChip(chip, config);
        return Dispatch.run(chip, program, args, Dispatch.callConfig(config, program));
    }

    @Override
    public void close() {
        chip.close();
    }
}
