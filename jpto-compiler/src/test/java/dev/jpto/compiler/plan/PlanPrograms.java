package dev.jpto.compiler.plan;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * Programs that exercise ring planning: scopes at depths 0–5, loops of scopes, intermediates consumed after a
 * nested scope, heap hogs, mixed request sizes that make the heap wrap, and INOUT accumulation chains. Every
 * program computes y from x so a run can be checked: {@link #reference} gives the expected y.
 */
public final class PlanPrograms {
    /** A 64×64 fp32 block: 16 KiB, one heap unit of 16 × 1024. */
    static final int B = 64;

    private PlanPrograms() {
    }

    public static Kernel copy(String name, int rows, int cols) {
        KernelBuilder k = KernelBuilder.kernel(name);
        KTensor src = k.input("src", FP32, 2);
        KTensor dst = k.output("dst", FP32, 2);
        KTile t = k.tile("t", FP32, rows, cols);
        k.load(t, src, 0, 0).store(t, dst, 0, 0);
        return k.build();
    }

    static Kernel accumulate() {
        KernelBuilder k = KernelBuilder.kernel("acc_tile");
        KTensor a = k.input("a", FP32, 2);
        KTensor c = k.inout("c", FP32, 2);
        KTile ta = k.tile("ta", FP32, B, B);
        KTile tc = k.tile("tc", FP32, B, B);
        k.load(tc, c, 0, 0).load(ta, a, 0, 0).add(tc, tc, ta).store(tc, c, 0, 0);
        return k.build();
    }

    /** Per iteration, one depth-1 scope: x_i → t1 → t2 → y_i. Ring 1 holds one scope's 3 tasks (32 KiB). */
    public static Program scopedChain(int iters) {
        ProgramBuilder p = ProgramBuilder.program("scoped_chain");
        TensorVar x = p.input("x", FP32, (long) B * iters, B);
        TensorVar y = p.output("y", FP32, (long) B * iters, B);
        KernelRef copy = p.aiv(copy("copy_tile", B, B));
        p.orchestrate(o -> o.forRange("i", iters, i -> o.scope(() -> {
            TensorVar t1 = o.alloc("t1", FP32, B, B);
            TensorVar t2 = o.alloc("t2", FP32, B, B);
            o.submit(copy, in(x.block(B, B).at(i, 0)), out(t1));
            o.submit(copy, in(t1), out(t2));
            o.submit(copy, in(t2), outExisting(y.block(B, B).at(i, 0)));
        })));
        return p.build();
    }

    /**
     * A binary tree of scopes {@code maxDepth} deep: every node (depth L, 2^L of them) copies its x block into an
     * intermediate, runs its two children (a loop of two depth-(L+1) scopes), then copies the intermediate to its
     * y block — an intermediate consumed after a nested scope. Depths ≥ 3 share ring 3.
     */
    public static Program nested(int maxDepth) {
        long nodes = (2L << maxDepth) - 1;
        ProgramBuilder p = ProgramBuilder.program("nested_" + maxDepth);
        TensorVar x = p.input("x", FP32, B * nodes, B);
        TensorVar y = p.output("y", FP32, B * nodes, B);
        KernelRef copy = p.aiv(copy("copy_tile", B, B));
        p.orchestrate(o -> node(o, copy, x, y, 0, maxDepth, Affine.of(0)));
        return p.build();
    }

    private static void node(Orch o, KernelRef copy, TensorVar x, TensorVar y, int level, int maxDepth, Affine idx) {
        Affine block = idx.plus((1L << level) - 1);
        TensorVar t = o.alloc("t" + level, FP32, B, B);
        o.submit(copy, in(x.block(B, B).at(block, 0)), out(t));
        if (level < maxDepth) {
            o.forRange("v" + (level + 1), 2, v -> o.scope(() ->
                    node(o, copy, x, y, level + 1, maxDepth, idx.times(2).plus(v))));
        }
        o.submit(copy, in(t), outExisting(y.block(B, B).at(block, 0)));
    }

    /** {@code blocks} intermediates produced, then all consumed, inside {@code depth} nested scopes. */
    public static Program heapHogAt(int depth, int blocks) {
        return heapHogAt(depth, blocks, B);
    }

    /**
     * As {@link #heapHogAt(int, int)} with intermediates of {@code edge} × {@code edge} fp32 of which the kernels
     * touch one 64 × 64 tile: a large heap need that costs little memory (the heap ring is committed lazily).
     */
    public static Program heapHogAt(int depth, int blocks, long edge) {
        ProgramBuilder p = ProgramBuilder.program("heap_hog_d" + depth);
        TensorVar x = p.input("x", FP32, (long) B * blocks, B);
        TensorVar y = p.output("y", FP32, (long) B * blocks, B);
        KernelRef copy = p.aiv(copy("copy_tile", B, B));
        p.orchestrate(o -> nest(o, depth, () -> {
            List<TensorVar> staged = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                TensorVar tmp = o.alloc("tmp" + b, FP32, edge, edge);
                o.submit(copy, in(x.block(B, B).at(b, 0)), out(tmp));
                staged.add(tmp);
            }
            for (int b = 0; b < blocks; b++) {
                o.submit(copy, in(staged.get(b)), outExisting(y.block(B, B).at(b, 0)));
            }
        }));
        return p.build();
    }

    private static void nest(Orch o, int depth, Runnable body) {
        if (depth == 0) {
            body.run();
        } else {
            o.scope(() -> nest(o, depth - 1, body));
        }
    }

    /**
     * Rounds of three depth-1 scopes whose intermediates are 64 × {64, 192, 128} fp32 (16, 48, 32 KiB) with two
     * of them live per scope: the heap ring wraps at points that waste space.
     */
    public static Program mixedSizes(int rounds) {
        int[] widths = {64, 192, 128};
        ProgramBuilder p = ProgramBuilder.program("mixed_sizes");
        TensorVar x = p.input("x", FP32, (long) B * 3 * rounds, 192);
        TensorVar y = p.output("y", FP32, (long) B * 3 * rounds, 192);
        KernelRef[] copies = new KernelRef[widths.length];
        for (int w = 0; w < widths.length; w++) {
            copies[w] = p.aiv(copy("copy_" + widths[w], B, widths[w]));
        }
        p.orchestrate(o -> o.forRange("j", rounds, j -> {
            for (int w = 0; w < widths.length; w++) {
                int k = w;
                int width = widths[w];
                Affine row = j.times(3L * B).plus((long) k * B);
                o.scope(() -> {
                    TensorVar a = o.alloc("a", FP32, B, width);
                    TensorVar b = o.alloc("b", FP32, B, width);
                    o.submit(copies[k], in(x.at(row, 0).size(B, width)), out(a));
                    o.submit(copies[k], in(a), out(b));
                    o.submit(copies[k], in(b), outExisting(y.at(row, 0).size(B, width)));
                });
            }
        }));
        return p.build();
    }

    /** Per iteration, a depth-1 scope: c = x_0, then c += x_k for k in 1..terms−1 (INOUT chain), then y_i = c. */
    public static Program accumulate(int iters, int terms) {
        ProgramBuilder p = ProgramBuilder.program("accumulate");
        TensorVar x = p.input("x", FP32, (long) B * terms, B);
        TensorVar y = p.output("y", FP32, (long) B * iters, B);
        KernelRef copy = p.aiv(copy("copy_tile", B, B));
        KernelRef acc = p.aiv(accumulate());
        p.orchestrate(o -> o.forRange("i", iters, i -> o.scope(() -> {
            TensorVar c = o.alloc("c", FP32, B, B);
            o.submit(copy, in(x.block(B, B).at(0, 0)), out(c));
            o.forRange("k", 1, terms, k -> o.submit(acc, in(x.block(B, B).at(k, 0)), inout(c)));
            o.submit(copy, in(c), outExisting(y.block(B, B).at(i, 0)));
        })));
        return p.build();
    }

    /** The y each program computes from x, by plain loops. */
    public static double[] reference(Program program, double[] x) {
        if (program.name().equals("mixed_sizes")) {
            int[] widths = {64, 192, 128};
            double[] y = new double[x.length];
            for (int r = 0; r < x.length / 192; r++) {
                int width = widths[(r / B) % 3];
                for (int c = 0; c < width; c++) {
                    y[r * 192 + c] = x[r * 192 + c];
                }
            }
            return y;
        }
        if (!program.name().equals("accumulate")) {
            return x.clone();
        }
        long[] xs = program.inputs().getFirst().shape();
        long[] ys = program.outputs().getFirst().shape();
        int terms = (int) (xs[0] / B);
        double[] y = new double[(int) (ys[0] * ys[1])];
        for (int i = 0; i < ys[0] / B; i++) {
            for (int e = 0; e < B * B; e++) {
                float s = (float) x[e];
                for (int k = 1; k < terms; k++) {
                    s += (float) x[k * B * B + e];
                }
                y[i * B * B + e] = s;
            }
        }
        return y;
    }
}
