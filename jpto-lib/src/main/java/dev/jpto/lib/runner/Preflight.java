package dev.jpto.lib.runner;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.launch.DistributedRunner;
import dev.jpto.compiler.run.RunConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code jpto run} or {@code jpto exec} will allocate and write, checked before its first stage: an L3 run's
 * chip count is in range, every output location is a writable directory, the tensors fit the
 * {@link MemoryBudget}, and the files fit the disk. The one place these rules are applied; the commands only say
 * what they allocate, where they write and on how many chips.
 */
public final class Preflight {
    /** The name a DFX output dir goes by in messages. */
    static final String OUTPUT_PREFIX = "runtime_cfg output_prefix";

    private final List<TensorUse> tensors = new ArrayList<>();
    private final List<Output> outputs = new ArrayList<>();

    private int chips;
    private int firstDevice;

    private record Output(String what, Path dir, List<TensorDecl> files) {
        long bytes() {
            long sum = 0;
            for (TensorDecl d : files) {
                long b;
                try {
                    b = TensorFiles.fileBytes(d);
                } catch (ArithmeticException e) {
                    b = Long.MAX_VALUE;
                }
                sum = b > Long.MAX_VALUE - sum ? Long.MAX_VALUE : sum + b; // no disk holds it either way
            }
            return sum;
        }
    }

    /** {@code copies} buffers of {@code tensor} ({@code role}: input, output, scratch) held at once. */
    public Preflight tensor(String role, TensorDecl tensor, int copies) {
        tensors.add(new TensorUse(role, tensor, copies));
        return this;
    }

    /** A directory known to the user as {@code what} (a flag), and the tensors written there as .npy files. */
    public Preflight output(String what, Path dir, List<TensorDecl> files) {
        outputs.add(new Output(what, dir, List.copyOf(files)));
        return this;
    }

    /** An L3 run on {@code n} chips from device {@code first}: within the chip bound and the device ids. */
    public Preflight chips(int n, int first) {
        this.chips = n;
        this.firstDevice = first;
        return this;
    }

    /** The DFX output dir of {@code config}, when it names one (what DFX writes is not known in advance). */
    public Preflight outputPrefix(RunConfig config) {
        return config.outputPrefix().isEmpty() ? this : output(OUTPUT_PREFIX, Path.of(config.outputPrefix()),
                List.of());
    }

    /**
     * Checks the chip count, the output locations, then the memory, then the disk space.
     *
     * @throws JitConfigException naming what does not fit or cannot be written; nothing has been allocated
     */
    public void check(MemoryBudget budget) {
        if (chips != 0) {
            try {
                DistributedRunner.checkChips(chips, firstDevice);
            } catch (IllegalArgumentException e) {
                throw new JitConfigException(e.getMessage(), e);
            }
        }
        for (Output o : outputs) {
            OutputDir.requireWritable(o.what(), o.dir());
        }
        budget.check(tensors);
        for (Output o : outputs) {
            OutputDir.requireSpace(o.what(), o.dir(), o.bytes());
        }
    }
}
