package dev.jpto.runtime.dfx;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.TaskBody;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Small programs with dependencies known by construction, shared by the DFX format tests. */
final class DfxPrograms {
    private DfxPrograms() {
    }

    /** A CallConfig with the given DFX switches writing under {@code prefix}. */
    static CallConfig dfx(Path prefix, int swimlane, int dumpArgs, int pmu, boolean depGen, RuntimeEnv env) {
        return new CallConfig(0, swimlane, dumpArgs, pmu, depGen, false, prefix.toString(), env);
    }

    /** y[i] = x[i] * k + c over two same-shape fp32 views; reports 2 FLOPs and the bytes per element. */
    static TaskBody axpb(double k, double c) {
        return ctx -> {
            Tensor x = ctx.tensor(0), y = ctx.tensor(1);
            for (long i = 0; i < x.numel(); i++) {
                y.setDouble(i, x.getDouble(i) * k + c);
            }
            ctx.recordWork(2 * x.numel(), x.byteSize(), y.byteSize());
        };
    }

    /** h[i] += 1 in place. */
    static final TaskBody INC = ctx -> {
        Tensor h = ctx.tensor(0);
        for (long i = 0; i < h.numel(); i++) {
            h.setDouble(i, h.getDouble(i) + 1);
        }
        ctx.recordWork(h.numel(), h.byteSize(), h.byteSize());
    };

    /** out = a + b. */
    static final TaskBody ADD = ctx -> {
        Tensor a = ctx.tensor(0), b = ctx.tensor(1), o = ctx.tensor(2);
        for (long i = 0; i < o.numel(); i++) {
            o.setDouble(i, a.getDouble(i) + b.getDouble(i));
        }
        ctx.recordWork(o.numel(), a.byteSize() + b.byteSize(), o.byteSize());
    };

    /** Task ids in submit order, filled by {@link #fiveTasks}. */
    static final class Ids {
        final List<Long> ids = new ArrayList<>();

        long get(int i) {
            return ids.get(i);
        }
    }

    /**
     * Five tasks in the root scope (nothing retires before the end), with these dependencies:
     * <pre>
     * t0 scale   x → X (OUTPUT)
     * t1 scale   X → Y (OUTPUT)             t0 → t1 arg 0 creator [wait, retain]
     * t2 inc     h (INOUT, whole)            (no producer)
     * t3 add     h, Y → out (OUTPUT_EXISTING) t2 → t3 arg 0 tensormap covered; t1 → t3 arg 1 creator
     * t4 inc     h rows 0..1 (INOUT)          t2 → t4 arg 0 tensormap partial
     * </pre>
     * Results: X = 2x, Y = 2x + 1, h = h0 + 1 then rows 0..1 + 1 more, out = (h0 + 1) + Y.
     */
    static Orchestration fiveTasks(Tensor x, Tensor h, Tensor out, Ids ids) {
        return orch -> {
            long[] shape = x.shape();
            long t0 = orch.submit("scale", CoreType.AIV, axpb(2, 0), Arg.input(x), Arg.output(DType.FP32, shape));
            long t1 = orch.submit("scale", CoreType.AIC, axpb(1, 1), Arg.input(orch.output(t0, 1)),
                    Arg.output(DType.FP32, shape));
            long t2 = orch.submit("inc", CoreType.AIV, INC, Arg.inout(h));
            long t3 = orch.submit("add", CoreType.AIV, ADD, Arg.input(h), Arg.input(orch.output(t1, 1)),
                    Arg.outputExisting(out));
            long t4 = orch.submit("inc", CoreType.AIV, INC,
                    Arg.inout(h.slice(new long[] {0, 0}, new long[] {2, shape[1]})));
            ids.ids.addAll(List.of(t0, t1, t2, t3, t4));
        };
    }
}
