package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.INT32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.DType;
import dev.jpto.isa.op.Fn;
import java.util.function.BiConsumer;

/**
 * Row scatters by a slot mapping ({@code dst[slot[e]] = src[e]} for every entry e with a slot ≥ 0). The ISA stores
 * only at task-time offsets, so per block of destination rows the kernel finds, for each row, the entry mapping
 * to it (compare, max of e+1), gathers that entry's row and selects it bit-exactly over the old row; rows nobody
 * maps to are written back unchanged.
 */
final class Scatter {
    private Scatter() {
    }

    /**
     * One task writing row {@code src[e]} (or {@code src[0]} when {@code byEntry} is false) into
     * {@code dst[slots[0, e]]}. {@code after}, when given, is read only as a dependency: the task waits for its
     * writers (a write-after-read fence, e.g. a state update after the pools that read the old state).
     */
    static void rows(Dsv4Build b, String name, DType dtype, TensorVar src, TensorVar slots, TensorVar dst,
                     boolean byEntry, TensorVar after) {
        int n = (int) slots.shape()[1];
        int w = (int) dst.shape()[1];
        long rows = dst.shape()[0];
        KernelRef k = b.aiv(name, kb -> {
            KTensor s = kb.input("src", src.dtype(), 2);
            KTensor sm = kb.input("slot_mapping", slots.dtype(), 2);
            KTensor o = kb.inout("dst", dtype, 2);
            if (after != null) {
                kb.input("after", after.dtype(), 2);
            }
            body(kb, "", sm, n, o, dtype, rows, w, byEntry, (nw, idx) -> kb.loadRows(nw, s, idx, 0, 0));
        });
        TaskArg[] args = after == null ? new TaskArg[] {in(src), in(slots), inout(dst)}
                : new TaskArg[] {in(src), in(slots), inout(dst), in(after)};
        b.submit(k, args);
    }

    /**
     * The scatter loop inside a kernel: {@code newRows.accept(nw, idx)} fills {@code nw} [block, w] with the source
     * rows of the entries in {@code idx} [block, 1] (from a tensor by loadRows, or from a tile by gatherRows).
     * Tile names take {@code p} as prefix so a kernel may scatter into several pools.
     */
    static void body(KernelBuilder kb, String p, KTensor sm, int n, KTensor o, DType dtype, long rows, int w,
                     boolean byEntry, BiConsumer<KTile, KTile> newRows) {
        int rb = Dsv4Build.tileOf((int) rows, 128);
        KTile slot = kb.tile(p + "slot", INT32, 1, n);
        KTile jm = kb.tile(p + "jm", INT32, rb, n);
        KTile tp = kb.tile(p + "tp", INT32, rb, n);
        KTile z = kb.tile(p + "z", INT32, rb, n);
        KTile mask = kb.tile(p + "mask", BOOL, rb, n);
        KTile hit = kb.tile(p + "hit", INT32, rb, 1);
        KTile idx = kb.tile(p + "idx", INT32, rb, 1);
        KTile zh = kb.tile(p + "zh", INT32, rb, w);
        KTile wide = kb.tile(p + "wide", INT32, rb, w);
        KTile mh = kb.tile(p + "mh", BOOL, rb, w);
        KTile nw = kb.tile(p + "nw", dtype, rb, w);
        KTile old = kb.tile(p + "old", dtype, rb, w);
        kb.load(slot, sm, 0, 0).iota(tp, Fn.Axis.COLS, 1).fill(z, 0);
        kb.forRange(p + "r0", 0, rows, rb, r0 -> {
            kb.iota(jm, Fn.Axis.ROWS, 0).binaryScalar(Fn.Binary.ADD, jm, jm, r0)
                    .colBroadcast(Fn.Binary.SUB, jm, jm, slot)
                    .compareScalar(Fn.Compare.EQ, mask, jm, 0).select(jm, mask, tp, z).rowMax(hit, jm);
            if (byEntry) {
                kb.adds(idx, hit, -1).binaryScalar(Fn.Binary.MAX, idx, idx, 0);
            } else {
                kb.fill(idx, 0);
            }
            newRows.accept(nw, idx);
            kb.load(old, o, r0, 0);
            Tiles.columnMask(kb, mh, hit, zh, wide);
            kb.select(old, mh, nw, old).store(old, o, r0, 0);
        });
    }
}
