package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.out;

import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.models.dsv4.Dsv4Dims;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4HeapPlan;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * State shared by the stages while one DSv4 program is assembled: the program builder, the orchestration body,
 * the preset's sizes, and the heap plan whose intermediates {@link #alloc} creates.
 *
 * <p>An {@code alloc} is the original's orchestration-level {@code pl.create_tensor}: a kernel-less task whose
 * OUTPUT block lives on the heap ring of the current scope. Here it is a task running an empty
 * {@code create_<dtype>} kernel with the intermediate as its only (OUTPUT) argument, so the runtime allocates it
 * exactly where and when the original does; every later task writes it through OUTPUT_EXISTING / INOUT views.
 */
final class Dsv4Build {
    final ProgramBuilder p;
    final String name;
    final Dsv4Program program;
    final Dsv4Preset preset;
    final Dsv4Dims m;
    final Dsv4Faults faults;
    final int t;
    private final Map<String, Dsv4HeapPlan.Alloc> plan = new LinkedHashMap<>();
    private final Map<String, KernelRef> kernels = new HashMap<>();
    private final Map<String, TensorVar> allocated = new LinkedHashMap<>();
    Orch o;

    Dsv4Build(String name, Dsv4Program program, Dsv4Preset preset, Dsv4Faults faults) {
        this(name, program, preset, faults, Dsv4HeapPlan.of(program, preset));
    }

    /**
     * A build whose intermediates are {@code heapPlan}; {@code program} is the attention program being built, or
     * null for the layer's other chip programs (the MoE stages), which take their plan from the caller.
     */
    Dsv4Build(String name, Dsv4Program program, Dsv4Preset preset, Dsv4Faults faults,
              List<Dsv4HeapPlan.Alloc> heapPlan) {
        this.p = ProgramBuilder.program(name);
        this.name = name;
        this.program = program;
        this.preset = preset;
        this.m = preset.dims();
        this.faults = faults;
        this.t = preset.t();
        for (Dsv4HeapPlan.Alloc a : heapPlan) {
            plan.put(tensorName(heapPlan, a), a);
        }
    }

    /**
     * The program's name for a plan allocation: its own name, or {@code <stage>_<name>} when two stages allocate
     * the same name (CSA's two ratio-4 compressors), since tensor names are unique in a program.
     */
    static String tensorName(List<Dsv4HeapPlan.Alloc> plan, Dsv4HeapPlan.Alloc a) {
        long same = plan.stream().filter(x -> x.name().equals(a.name())).count();
        return same > 1 ? a.stage() + "_" + a.name() : a.name();
    }

    /** The plan allocation {@code name} of {@code stage} (see {@link #tensorName}). */
    TensorVar alloc(String stage, String name) {
        return alloc(plan.containsKey(stage + "_" + name) ? stage + "_" + name : name);
    }

    /** The heap intermediate {@code name} of the plan, created now in the current scope (rank-1 as [1, n]). */
    TensorVar alloc(String name) {
        Dsv4HeapPlan.Alloc a = plan.get(name);
        if (a == null) {
            throw new IllegalStateException(this.name + ": '" + name + "' is not in the heap plan; has "
                    + plan.keySet());
        }
        if (allocated.containsKey(name)) {
            throw new IllegalStateException(this.name + ": '" + name + "' is allocated twice");
        }
        long[] shape = a.shape();
        if (shape.length == 1) {
            shape = new long[] {1, shape[0]};
        }
        TensorVar v = o.alloc(name, a.dtype(), shape);
        o.submit(creator(a.dtype(), shape.length), out(v));
        allocated.put(name, v);
        return v;
    }

    /** The intermediates allocated so far, in order. */
    Map<String, TensorVar> allocated() {
        return allocated;
    }

    private KernelRef creator(DType dtype, int rank) {
        String name = "create_" + dtype.text() + "_r" + rank;
        return kernels.computeIfAbsent(name, n -> {
            KernelBuilder k = KernelBuilder.kernel(n);
            k.output("t", dtype, rank);
            return p.aiv(k.build());
        });
    }

    /** A vector-core kernel, registered once. */
    KernelRef aiv(String name, Consumer<KernelBuilder> body) {
        return register(name, body, false);
    }

    /** A cube-core (matmul) kernel, registered once. */
    KernelRef aic(String name, Consumer<KernelBuilder> body) {
        return register(name, body, true);
    }

    private KernelRef register(String name, Consumer<KernelBuilder> body, boolean cube) {
        KernelRef r = kernels.get(name);
        if (r != null) {
            return r;
        }
        KernelBuilder k = KernelBuilder.kernel(name);
        body.accept(k);
        Kernel kernel = k.build();
        r = cube ? p.aic(kernel) : p.aiv(kernel);
        kernels.put(name, r);
        return r;
    }

    void submit(KernelRef k, TaskArg... args) {
        o.submit(k, args);
    }

    /**
     * One SPMD task of {@code n} blocks, the original's {@code pl.spmd(n)}: {@code args} gets the block index, which
     * may move slices and index arguments (a moving slice is one TensorMap entry, the box of all blocks' views).
     */
    void grid(long n, KernelRef k, Function<Affine, TaskArg[]> args) {
        o.submit(SubmitOptions.blocks(Math.toIntExact(n)), k, args.apply(Orch.BLOCK_IDX));
    }

    /** A grid of {@code rows × cols} blocks: block b is ({@code b / cols}, {@code b % cols}), row-major. */
    void grid(long rows, long cols, KernelRef k, BiFunction<Affine, Affine, TaskArg[]> args) {
        grid(SubmitOptions.NONE, rows, cols, k, args);
    }

    /** {@link #grid(long, long, KernelRef, BiFunction)} with a label and explicit dependencies from {@code opts}. */
    void grid(SubmitOptions opts, long rows, long cols, KernelRef k, BiFunction<Affine, Affine, TaskArg[]> args) {
        o.submit(opts.withBlocks(Math.toIntExact(rows * cols)), k,
                args.apply(Orch.blockDiv(cols), Orch.blockMod(cols)));
    }

    /**
     * The original's {@code late_dep = task_dummy(deps=[after])}: a task with no kernel work and no arguments,
     * labelled {@code label}, that later submits name to wait one hop behind {@code after}.
     */
    void barrier(String label, String after) {
        KernelRef dummy = kernels.computeIfAbsent("task_dummy", n -> p.aiv(KernelBuilder.kernel(n).build()));
        o.submit(SubmitOptions.labelled(label).withAfter(after), dummy);
    }

    /** The arguments of a {@link #grid} block. */
    static TaskArg[] args(TaskArg... a) {
        return a;
    }

    /** {@code ceil(a / b)}. */
    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** The largest of {@code preferred, preferred/2, …} that divides {@code n} (at least 1). */
    static int tileOf(int n, int preferred) {
        int c = Math.min(n, preferred);
        while (n % c != 0) {
            c--;
        }
        return c;
    }
}
