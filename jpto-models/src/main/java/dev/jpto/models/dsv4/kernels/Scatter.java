package dev.jpto.models.dsv4.kernels;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.isa.DType.BOOL;
import static dev.jpto.isa.DType.INT32;

import dev.jpto.compiler.dsl.KScalar;
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
 * only at task-time offsets, so per block of destination rows the kernel finds, for each row, the last entry
 * mapping to it, gathers that entry's row and selects it bit-exactly over the old row, a column chunk at a time;
 * rows nobody maps to are written back unchanged. Blocks of {@value #ROW_BLOCK} rows by {@value #COL_CHUNK}
 * columns keep the kernel within the UB, as the device kernel loops over its tiles.
 */
final class Scatter {
    private static final int ROW_BLOCK = 64;
    private static final int COL_CHUNK = 128;

    private Scatter() {
    }

    /** Fills {@code nw} [block, chunk] with the columns from {@code c0} of the source rows of the entries in idx. */
    @FunctionalInterface
    interface NewRows {
        void fill(KTile nw, KTile idx, KScalar c0);
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
            body(kb, "", sm, n, o, dtype, rows, w, byEntry, (nw, idx, c0) -> kb.loadRows(nw, s, idx, 0, c0));
        });
        TaskArg[] args = after == null ? new TaskArg[] {in(src), in(slots), inout(dst)}
                : new TaskArg[] {in(src), in(slots), inout(dst), in(after)};
        b.submit(k, args);
    }

    /**
     * {@link #body(KernelBuilder, String, KTensor, int, KTensor, DType, long, int, boolean, NewRows)} with the new
     * rows taken whole ({@code w} in one chunk), e.g. gathered from a tile by gatherRows.
     */
    static void body(KernelBuilder kb, String p, KTensor sm, int n, KTensor o, DType dtype, long rows, int w,
                     boolean byEntry, BiConsumer<KTile, KTile> newRows) {
        body(kb, p, sm, n, o, dtype, rows, w, w, byEntry, (nw, idx, c0) -> newRows.accept(nw, idx));
    }

    /**
     * The scatter loop inside a kernel, over the {@code n} entries of {@code sm} [1, n] and the rows × w of
     * {@code o}. Tile names take {@code p} as prefix so a kernel may scatter into several pools.
     */
    static void body(KernelBuilder kb, String p, KTensor sm, int n, KTensor o, DType dtype, long rows, int w,
                     boolean byEntry, NewRows newRows) {
        body(kb, p, sm, n, o, dtype, rows, w, Dsv4Build.tileOf(w, COL_CHUNK), byEntry, newRows);
    }

    private static void body(KernelBuilder kb, String p, KTensor sm, int n, KTensor o, DType dtype, long rows,
                             int w, int wc, boolean byEntry, NewRows newRows) {
        int rb = Dsv4Build.tileOf((int) rows, ROW_BLOCK);
        KTile slot = kb.tile(p + "slot", INT32, 1, n);
        KTile tp = kb.tile(p + "tp", INT32, 1, n);
        KTile key = kb.tile(p + "key", INT32, rb, n);
        KTile hit = kb.tile(p + "hit", INT32, rb, 1);
        KTile idx = kb.tile(p + "idx", INT32, rb, 1);
        KTile wide = kb.tile(p + "wide", INT32, rb, wc);
        KTile mh = kb.tile(p + "mh", BOOL, rb, wc);
        KTile nw = kb.tile(p + "nw", dtype, rb, wc);
        KTile old = kb.tile(p + "old", dtype, rb, wc);
        kb.load(slot, sm, 0, 0).iota(tp, Fn.Axis.COLS, 1);
        kb.forRange(p + "r0", 0, rows, rb, r0 -> {
            // key[r][e] = e+1 where slot[e] is row r0+r, ≤ 0 elsewhere: its row max is the last entry + 1, or ≤ 0
            kb.iota(key, Fn.Axis.ROWS, 0).binaryScalar(Fn.Binary.ADD, key, key, r0)
                    .colBroadcast(Fn.Binary.SUB, key, key, slot).unary(Fn.Unary.ABS, key, key)
                    .binaryScalar(Fn.Binary.MIN, key, key, 1).muls(key, key, -(n + 1))
                    .colBroadcast(Fn.Binary.ADD, key, key, tp).rowMax(hit, key);
            if (byEntry) {
                kb.adds(idx, hit, -1).binaryScalar(Fn.Binary.MAX, idx, idx, 0);
            } else {
                kb.fill(idx, 0);
            }
            Tiles.columnMask(kb, mh, hit, wide);
            kb.forRange(p + "c0", 0, w, wc, c0 -> {
                newRows.fill(nw, idx, c0);
                kb.load(old, o, r0, c0).select(old, mh, nw, old).store(old, o, r0, c0);
            });
        });
    }
}
