package dev.jpto.runtime.device;

import dev.jpto.isa.DType;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;

/**
 * What the device cost model knows about one chip: the single place for every figure it uses. Core counts come
 * from {@link Platform}; everything else is in {@link #of}, one constant per figure, with its source in
 * {@code docs/device-model.md} (published figures, the original repositories' cost models and constants, or an
 * assumption with its reason).
 *
 * @param chipClass         the device this platform stands for
 * @param clockMhz          AICore clock
 * @param cube              cube (AIC) throughput per input dtype
 * @param vector            vector (AIV) throughput per op class
 * @param memory            global-memory (GM) bandwidths and latencies
 * @param buffers           on-chip buffer capacities in bytes
 * @param runtime           the runtime's per-task costs
 * @param issueCyclesPerOp  scalar-unit cycles to issue one tile op into its pipe's queue
 */
public record HardwareSpec(Platform platform, String chipClass, int clockMhz, CubeRates cube, VectorRates vector,
                           MemoryRates memory, Buffers buffers, RuntimeCosts runtime, int issueCyclesPerOp) {

    /**
     * One cube fractal: a 16×16 block of C accumulates a 16×{@code k0} by {@code k0}×16 product in
     * {@code cyclesPerFractal} cycles ({@code k0} = 32 bytes of the input dtype).
     */
    public record CubeRate(int k0, int cyclesPerFractal) {
        /** Multiply-accumulates per cycle per cube core. */
        public double macsPerCycle() {
            return (double) CubeRates.FRACTAL_MN * CubeRates.FRACTAL_MN * k0 / cyclesPerFractal;
        }
    }

    /** Cube throughput per input dtype; {@code fp8} is null where the chip has no fp8 cube. */
    public record CubeRates(int headCycles, CubeRate fp16, CubeRate fp32, CubeRate int8, CubeRate fp8) {
        /** Rows and columns of C one fractal covers. */
        public static final int FRACTAL_MN = 16;

        /** The rate for a matmul whose A and B have {@code dtype}; the error lists the cube's input dtypes. */
        public CubeRate of(DType dtype) {
            return switch (dtype) {
                case FP16, BF16 -> fp16;
                case FP32 -> fp32;
                case INT8 -> int8;
                default -> throw new IllegalArgumentException("no cube rate for " + dtype.text()
                        + " inputs; the cube takes fp16, bf16, fp32, int8");
            };
        }
    }

    /**
     * Vector throughput. Streams with one tile source move {@code simpleBytesPerCycle}, with two tile sources
     * {@code binaryBytesPerCycle} (bytes of the op's dtype); transcendental and division functions run at a fixed
     * element rate whatever the dtype (evaluated in fp32); a reduction pays {@code reductionRowCycles} per source
     * row on top of streaming its elements. Every vector instruction pays {@code startupCycles}.
     */
    public record VectorRates(int startupCycles, double simpleBytesPerCycle, double binaryBytesPerCycle,
                              double transcendentalPerCycle, double divisionPerCycle, int reductionRowCycles) {
    }

    /**
     * Global memory. Per-core DMA rates in GiB/s by path (GM→UB for AIV loads, GM→L1 for AIC loads, UB→GM for AIV
     * stores, L0C→GM through the fixpipe for AIC stores); {@code chipGBps} is the HBM's total (10⁹ B/s). Between
     * the cores and HBM sits an L2 cache of {@code l2Bytes} that serves all cores together at {@code l2ChipGBps}
     * ({@link L2Cache}).
     */
    public record MemoryRates(double chipGBps, double gmToUbGiBps, double gmToL1GiBps, double ubToGmGiBps,
                              double l0cToGmGiBps, int loadLatencyCycles, int storeLatencyCycles, long l2Bytes,
                              double l2ChipGBps) {
    }

    /** On-chip buffer capacities in bytes: UB per AIV core; L1, L0A, L0B, L0C per AIC core. */
    public record Buffers(int ub, int l1, int l0a, int l0b, int l0c) {
    }

    /**
     * The runtime's costs per task in nanoseconds: the orchestrator's submit, the scheduler's dispatch (ready to
     * kernel start) and completion (kernel end to its consumers being released).
     */
    public record RuntimeCosts(long submitNs, long dispatchNs, long completionNs) {
    }

    private static final double GIB = 1024.0 * 1024 * 1024;

    /** The table for {@code platform}'s chip (a hardware platform and its simulated twin share one). */
    public static HardwareSpec of(Platform platform) {
        return switch (platform.simulatedTwin()) {
            case A2A3SIM -> a2a3(platform);
            case A5SIM -> a5(platform);
            case A2A3, A5 -> throw new IllegalStateException("simulatedTwin() returned a hardware platform");
        };
    }

    private static HardwareSpec a2a3(Platform p) {
        CubeRates cube = new CubeRates(6, new CubeRate(16, 1), new CubeRate(8, 2), new CubeRate(32, 1), null);
        VectorRates vector = new VectorRates(40, 256, 128, 32, 12.8, 7);
        // L2: 192 MiB (CANN Ascend910B2C.ini l2_size); 110 B/cycle per core (its l2_rate) × 24 cores × clock
        MemoryRates memory = new MemoryRates(1600, 100.9, 135.0, 188.46, 70.0, 200, 200, 192L << 20,
                110 * 24 * 1.85);
        Buffers buffers = new Buffers(192 << 10, 512 << 10, 64 << 10, 64 << 10, 128 << 10);
        return new HardwareSpec(p, "Ascend 910B-class (a2a3)", 1850, cube, vector, memory, buffers,
                new RuntimeCosts(874, 300, 600), 1);
    }

    private static HardwareSpec a5(Platform p) {
        CubeRates cube = new CubeRates(6, new CubeRate(16, 1), new CubeRate(8, 2), new CubeRate(32, 1),
                new CubeRate(32, 1));
        VectorRates vector = new VectorRates(55, 256 / 1.0589, 256 / 1.2470, 64 / 1.9671, 64 / 1.9081, 7);
        // L2: 112 MiB (CANN Ascend950PR_957bx.ini, a 28-core part; assumed for the 36-core one); 100 B/cycle per
        // core (its l2_rate) × 36 cores × clock
        MemoryRates memory = new MemoryRates(1600, 100.9, 135.0, 188.46, 70.0, 200, 200, 112L << 20,
                100 * 36 * 1.7);
        Buffers buffers = new Buffers(256 << 10, 512 << 10, 64 << 10, 64 << 10, 256 << 10);
        return new HardwareSpec(p, "Ascend 950PR-class (a5)", 1700, cube, vector, memory, buffers,
                new RuntimeCosts(874, 300, 600), 1);
    }

    public int aicCores() {
        return platform.aicCores();
    }

    public int aivCores() {
        return platform.aivCores();
    }

    /** GM bytes one core loads per cycle: GM→L1 on a cube core, GM→UB on a vector core. */
    public double loadBytesPerCycle(CoreType core) {
        return gibpsToBytesPerCycle(core == CoreType.AIC ? memory.gmToL1GiBps() : memory.gmToUbGiBps());
    }

    /** GM bytes one core stores per cycle: L0C→GM (fixpipe) on a cube core, UB→GM on a vector core. */
    public double storeBytesPerCycle(CoreType core) {
        return gibpsToBytesPerCycle(core == CoreType.AIC ? memory.l0cToGmGiBps() : memory.ubToGmGiBps());
    }

    private double gibpsToBytesPerCycle(double gibps) {
        return gibps * GIB / (clockMhz * 1e6);
    }

    /** Picoseconds of {@code cycles} at the AICore clock, rounded up. */
    public long cyclesToPs(long cycles) {
        return Math.ceilDiv(Math.multiplyExact(cycles, 1_000_000L), clockMhz);
    }

    /** Picoseconds to move {@code bytes} at the chip's total HBM bandwidth, rounded up. */
    public long chipTransferPs(long bytes) {
        return (long) Math.ceil(bytes * 1000.0 / memory.chipGBps());
    }

    /** Picoseconds to move {@code bytes} through the L2 at its total bandwidth, rounded up. */
    public long l2TransferPs(long bytes) {
        return (long) Math.ceil(bytes * 1000.0 / memory.l2ChipGBps());
    }

    /**
     * One core's compute peak in FLOPs per cycle, the roofline's ceiling: the cube at fp16/bf16 on a cube core
     * (2 FLOPs per multiply-accumulate), the vector unit's one-source rate in fp32 elements on a vector core.
     */
    public double peakFlopsPerCycle(CoreType core) {
        return core == CoreType.AIC ? 2 * cube.fp16().macsPerCycle()
                : vector.simpleBytesPerCycle() / DType.FP32.byteSize();
    }

    /** Peak cube FLOP/s of the whole chip for {@code dtype} inputs (2 FLOPs per multiply-accumulate). */
    public double peakCubeFlops(DType dtype) {
        return 2 * cube.of(dtype).macsPerCycle() * aicCores() * clockMhz * 1e6;
    }
}
