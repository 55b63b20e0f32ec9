package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.op.Fn;

/** Small real programs written in the DSL; they drive the design and the run tests. */
public final class TestPrograms {
    private TestPrograms() {
    }

    /**
     * A data-dependent trip count: a kernel counts the positive scores {@code s[1, 16]} into an int32 intermediate,
     * the orchestration reads the count ({@code max} 16) and submits that many 4-row tasks y[4i:4i+4] = x + 1;
     * rows past 4·count stay as the caller left them.
     */
    public static Program positiveRowsPlusOne() {
        KernelBuilder c = KernelBuilder.kernel("count_positive");
        KTensor s = c.input("s", FP32, 2);
        KTensor n = c.output("n", dev.jpto.isa.DType.INT32, 2);
        KTile ts = c.tile("ts", FP32, 1, 16);
        KTile one = c.tile("one", FP32, 1, 16);
        KTile zero = c.tile("zero", FP32, 1, 16);
        KTile mask = c.tile("mask", dev.jpto.isa.DType.BOOL, 1, 16);
        KTile sum = c.tile("sum", FP32, 1, 1);
        KTile cnt = c.tile("cnt", dev.jpto.isa.DType.INT32, 1, 1);
        c.load(ts, s, 0, 0).fill(one, 1).fill(zero, 0).compareScalar(Fn.Compare.GT, mask, ts, 0)
                .select(ts, mask, one, zero).rowSum(sum, ts).cast(cnt, sum).store(cnt, n, 0, 0);
        KernelBuilder a = KernelBuilder.kernel("plus_one");
        KTensor x = a.input("x", FP32, 2);
        KTensor y = a.output("y", FP32, 2);
        KTile t = a.tile("t", FP32, 4, 16);
        a.load(t, x, 0, 0).adds(t, t, 1).store(t, y, 0, 0);

        ProgramBuilder p = ProgramBuilder.program("positive_rows_plus_one");
        TensorVar xs = p.input("x", FP32, 64, 16);
        TensorVar ss = p.input("s", FP32, 1, 16);
        TensorVar ys = p.output("y", FP32, 64, 16);
        KernelRef count = p.aiv(c.build());
        KernelRef plus = p.aiv(a.build());
        p.orchestrate(o -> {
            TensorVar counted = o.alloc("count", dev.jpto.isa.DType.INT32, 1, 1);
            o.submit(count, in(ss), out(counted));
            var rows = o.read("k", counted, 16);
            o.forRange("i", rows, i -> o.submit(plus, in(xs.block(4, 16).at(i, 0)),
                    outExisting(ys.block(4, 16).at(i, 0))));
        });
        return p.build();
    }

    /** z = x + y over [rows, 128], in 64-row tiles. */
    public static Program vectorAdd(int rows) {
        KernelBuilder k = KernelBuilder.kernel("add_tile");
        KTensor x = k.input("x", FP32, 2);
        KTensor y = k.input("y", FP32, 2);
        KTensor z = k.output("z", FP32, 2);
        KTile a = k.tile("a", FP32, 64, 128);
        KTile b = k.tile("b", FP32, 64, 128);
        k.load(a, x, 0, 0).load(b, y, 0, 0).add(a, a, b).store(a, z, 0, 0);
        Kernel add = k.build();

        ProgramBuilder p = ProgramBuilder.program("vector_add");
        TensorVar xs = p.input("x", FP32, rows, 128);
        TensorVar ys = p.input("y", FP32, rows, 128);
        TensorVar zs = p.output("z", FP32, rows, 128);
        KernelRef addTile = p.aiv(add);
        p.orchestrate(o -> o.forRange("i", rows / 64, i -> o.submit(addTile,
                in(xs.block(64, 128).at(i, 0)), in(ys.block(64, 128).at(i, 0)), outExisting(zs.block(64, 128).at(i, 0)))));
        return p.build();
    }

    /**
     * C = A·B with 64×64 tiles: per output tile, the first K step writes C (outExisting), the others accumulate
     * into it (inout), so the runtime orders them through the TensorMap.
     */
    public static Program matmul(int m, int kDim, int n) {
        KernelBuilder first = KernelBuilder.kernel("mm_first");
        KTensor a1 = first.input("a", FP32, 2);
        KTensor b1 = first.input("b", FP32, 2);
        KTensor c1 = first.output("c", FP32, 2);
        KTile ta1 = first.tile("ta", FP32, 64, 64);
        KTile tb1 = first.tile("tb", FP32, 64, 64);
        KTile tc1 = first.tile("tc", FP32, 64, 64);
        first.load(ta1, a1, 0, 0).load(tb1, b1, 0, 0).matmul(tc1, ta1, tb1).store(tc1, c1, 0, 0);

        KernelBuilder acc = KernelBuilder.kernel("mm_acc");
        KTensor a2 = acc.input("a", FP32, 2);
        KTensor b2 = acc.input("b", FP32, 2);
        KTensor c2 = acc.inout("c", FP32, 2);
        KTile ta2 = acc.tile("ta", FP32, 64, 64);
        KTile tb2 = acc.tile("tb", FP32, 64, 64);
        KTile tc2 = acc.tile("tc", FP32, 64, 64);
        acc.load(tc2, c2, 0, 0).load(ta2, a2, 0, 0).load(tb2, b2, 0, 0).matmulAcc(tc2, ta2, tb2).store(tc2, c2, 0, 0);

        ProgramBuilder p = ProgramBuilder.program("matmul");
        TensorVar a = p.input("a", FP32, m, kDim);
        TensorVar b = p.input("b", FP32, kDim, n);
        TensorVar c = p.output("c", FP32, m, n);
        KernelRef mmFirst = p.aic(first.build());
        KernelRef mmAcc = p.aic(acc.build());
        p.orchestrate(o -> o.forRange("i", m / 64, i -> o.forRange("j", n / 64, j -> {
            TensorVar cij = c.block(64, 64).at(i, j);
            o.submit(mmFirst, in(a.block(64, 64).at(i, 0)), in(b.block(64, 64).at(0, j)), outExisting(cij));
            o.forRange("kk", 1, kDim / 64, kk ->
                    o.submit(mmAcc, in(a.block(64, 64).at(i, kk)), in(b.block(64, 64).at(kk, j)), inout(cij)));
        })));
        return p.build();
    }

    /**
     * y = softmax(x) along rows, in two tasks per 64-row block: row maxima into an intermediate (allocated on the
     * heap ring), then exp(x − max) / sum.
     */
    public static Program rowSoftmax(int rows, int cols) {
        KernelBuilder mk = KernelBuilder.kernel("row_max");
        KTensor x1 = mk.input("x", FP32, 2);
        KTensor m1 = mk.output("m", FP32, 2);
        KTile t1 = mk.tile("t", FP32, 64, cols);
        KTile mx1 = mk.tile("mx", FP32, 64, 1);
        mk.load(t1, x1, 0, 0).rowMax(mx1, t1).store(mx1, m1, 0, 0);

        KernelBuilder ak = KernelBuilder.kernel("softmax_apply");
        KTensor x2 = ak.input("x", FP32, 2);
        KTensor m2 = ak.input("m", FP32, 2);
        KTensor y2 = ak.output("y", FP32, 2);
        KTile t2 = ak.tile("t", FP32, 64, cols);
        KTile mx2 = ak.tile("mx", FP32, 64, 1);
        KTile s2 = ak.tile("s", FP32, 64, 1);
        ak.load(t2, x2, 0, 0).load(mx2, m2, 0, 0)
                .rowBroadcast(Fn.Binary.SUB, t2, t2, mx2)
                .exp(t2, t2)
                .rowSum(s2, t2)
                .rowBroadcast(Fn.Binary.DIV, t2, t2, s2)
                .store(t2, y2, 0, 0);

        ProgramBuilder p = ProgramBuilder.program("row_softmax");
        TensorVar x = p.input("x", FP32, rows, cols);
        TensorVar y = p.output("y", FP32, rows, cols);
        KernelRef rowMax = p.aiv(mk.build());
        KernelRef apply = p.aiv(ak.build());
        p.orchestrate(o -> o.forRange("i", rows / 64, i -> {
            TensorVar xi = x.block(64, cols).at(i, 0);
            TensorVar m = o.alloc("m", FP32, 64, 1);
            o.submit(rowMax, in(xi), out(m));
            o.submit(apply, in(xi), in(m), outExisting(y.block(64, cols).at(i, 0)));
        }));
        return p.build();
    }

    /**
     * y = x, staged through one 64×64 fp32 intermediate (16 KiB) per block, all in the root scope: the heap ring
     * must hold {@code blocks} × 16 KiB at once, because the scope keeps every task until it closes.
     */
    public static Program heapHog(int blocks) {
        KernelBuilder ck = KernelBuilder.kernel("copy_tile");
        KTensor src = ck.input("src", FP32, 2);
        KTensor dst = ck.output("dst", FP32, 2);
        KTile t = ck.tile("t", FP32, 64, 64);
        ck.load(t, src, 0, 0).store(t, dst, 0, 0);

        ProgramBuilder p = ProgramBuilder.program("heap_hog");
        TensorVar x = p.input("x", FP32, 64L * blocks, 64);
        TensorVar y = p.output("y", FP32, 64L * blocks, 64);
        KernelRef copy = p.aiv(ck.build());
        p.orchestrate(o -> {
            java.util.List<TensorVar> staged = new java.util.ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                TensorVar tmp = o.alloc("tmp" + b, FP32, 64, 64);
                o.submit(copy, in(x.block(64, 64).at(b, 0)), out(tmp));
                staged.add(tmp);
            }
            for (int b = 0; b < blocks; b++) {
                o.submit(copy, in(staged.get(b)), outExisting(y.block(64, 64).at(b, 0)));
            }
        });
        return p.build();
    }

    /**
     * y block i = s · Σ_{j ≤ i} x block j, over 64-row blocks of x seen through a reshape ([128, 128] as
     * [256, 64]). Exercises a triangular loop bound, scalar arguments (a row offset and a float scale), a loop
     * inside the kernel, inout ordering of the accumulation, and one scope per output block.
     */
    public static Program prefixBlocks(double s) {
        KernelBuilder zk = KernelBuilder.kernel("zero");
        KTensor zy = zk.output("y", FP32, 2);
        KTile zt = zk.tile("t", FP32, 64, 64);
        zk.fill(zt, 0.0).store(zt, zy, 0, 0);

        KernelBuilder ak = KernelBuilder.kernel("acc_scaled");
        KTensor ax = ak.input("x", FP32, 2);
        KTensor ay = ak.inout("y", FP32, 2);
        dev.jpto.compiler.dsl.KScalar row0 = ak.scalar("row0");
        dev.jpto.compiler.dsl.KScalar scale = ak.scalar("scale");
        KTile t = ak.tile("t", FP32, 32, 64);
        KTile u = ak.tile("u", FP32, 32, 64);
        ak.forRange("h", 0, 2, h -> ak.load(t, ax, row0.plus(h.times(32)), 0)
                .binaryScalar(Fn.Binary.MUL, t, t, scale)
                .load(u, ay, h.times(32), 0)
                .add(u, u, t)
                .store(u, ay, h.times(32), 0));

        ProgramBuilder p = ProgramBuilder.program("prefix_blocks");
        TensorVar x = p.input("x", FP32, 128, 128);
        TensorVar y = p.output("y", FP32, 256, 64);
        KernelRef zero = p.aiv(zk.build());
        KernelRef acc = p.aiv(ak.build());
        TensorVar rows = x.reshape(256, 64);
        p.orchestrate(o -> o.forRange("i", 4, i -> o.scope(() -> {
            TensorVar yi = y.block(64, 64).at(i, 0);
            o.submit(zero, outExisting(yi));
            // x is never written, so its readers need no dependency tracking: noDep.
            o.forRange("j", 0, i.plus(1), j -> o.submit(acc, dev.jpto.compiler.dsl.TaskArg.noDep(rows), inout(yi),
                    dev.jpto.compiler.dsl.TaskArg.scalar(j.times(64)), dev.jpto.compiler.dsl.TaskArg.scalar(s)));
        })));
        return p.build();
    }
}
