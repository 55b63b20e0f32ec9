package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.exec.EmptyKernels;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.chip.ReservedMemory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A diagnostic run that measures a program's orchestration, not its results: the real chip runtime submits every
 * task, reserves its outputs on the heap ring, tracks its dependencies, dispatches, completes and reclaims it, but
 * every kernel body is empty ({@link EmptyKernels}). The arguments are placeholders in lazily committed memory
 * that nothing reads or writes, so a program with GiB of inputs costs only its ring bookkeeping. The report's
 * high-water marks are the runtime's own; the outputs are meaningless, which is why no normal run surface
 * ({@code jpto run}, {@link Runner#run}, a RunConfig key) can reach this mode.
 *
 * <p>Ring sizing, {@code auto} resolution, errors (HEAP_RING_DEADLOCK and the others, with the plan's advice) and
 * DFX outputs are those of a normal run on the chip {@code config} names. Scheduling differs in one way: an empty
 * task finishes as soon as it is dispatched, so the orchestrator rarely runs far ahead of the cores; high-water
 * marks that depend on run-ahead (tasks not pinned by an open scope) may read lower than in a real run.
 */
public final class DryRun {
    /** Placeholder arguments start on page boundaries, so no two share an address (the TensorMap's key). */
    private static final long ALIGN = 4096;

    private DryRun() {
    }

    /**
     * Runs {@code program} once on the chip {@code config} names with empty kernel bodies.
     *
     * @throws IllegalArgumentException for an invalid config, or one with enable_dump_args (nothing runs)
     * @throws dev.jpto.runtime.ChipRuntimeException when the run fails, exactly as a real run with these ring sizes
     */
    public static RunReport run(CompiledProgram program, RunConfig config) {
        if (config.enableDumpArgs() != 0) {
            // the placeholders hold nothing, and dumping them would commit and write every byte of them
            throw new IllegalArgumentException("a dry run computes no tensors, so there is nothing to dump: "
                    + "enable_dump_args=" + config.enableDumpArgs() + " is not allowed here (use 0; dump from 'jpto run "
                    + "--dump-args')");
        }
        long total = 0;
        for (TensorDecl d : program.program().signature()) {
            total += placeholderBytes(d);
        }
        try (ReservedMemory memory = ReservedMemory.reserve(total, "dry-run arguments of " + program.name())) {
            Map<String, Tensor> args = new LinkedHashMap<>();
            long offset = 0;
            for (TensorDecl d : program.program().signature()) {
                long bytes = placeholderBytes(d);
                args.put(d.name(), Tensor.wrap(memory.segment().asSlice(offset, bytes), d.dtype(), d.shape()));
                offset += bytes;
            }
            return Dispatch.runOnce(program, args, config, EmptyKernels.INSTANCE);
        }
    }

    private static long placeholderBytes(TensorDecl d) {
        long bytes = Math.max(1, Math.multiplyExact(d.numel(), d.dtype().byteSize()));
        return (bytes + ALIGN - 1) / ALIGN * ALIGN;
    }
}
