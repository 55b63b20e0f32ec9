package dev.jpto.runtime.device;

import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.kernel.KernelExecutor;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.TileOp;
import dev.jpto.runtime.CoreType;
import java.util.Arrays;
import java.util.List;

/**
 * Estimates the device time of kernel executions on one core type: pass it to
 * {@link KernelExecutor#execute(dev.jpto.isa.kernel.Kernel, Tensor[], double[], KernelExecutor.OpListener)}, then
 * read {@link #finish()}. Not thread-safe: one recorder per executor thread, like the executor.
 *
 * <p>The rule: the scalar unit issues the ops in program order, {@code issueCyclesPerOp} each; an op starts when it
 * has been issued, its pipe is free (each pipe runs its ops in order), the tiles it reads hold their results (RAW),
 * the tiles it writes are no longer being read or written by earlier ops (WAR, WAW), and, for a load, earlier
 * stores to the same tensor are done. It keeps its pipe {@code busyCycles}; its results are ready
 * {@code latencyCycles} after that. The task's time is when the last result is ready. Pipes therefore overlap
 * exactly as far as the kernel's tiles allow: a loop that reuses one tile serialises its loads behind the compute
 * that reads the previous tile, a loop that alternates two tiles (double buffering) overlaps them.
 */
public final class KernelCostRecorder implements KernelExecutor.OpListener {
    private static final int PIPES = Pipe.values().length;

    private final OpCosts costs;
    private final int issueCycles;

    private long issuedAt;
    private long end;
    private final long[] pipeFree = new long[PIPES];
    private final long[] pipeBusy = new long[PIPES];
    private long bytesRead;
    private long bytesWritten;
    private long ops;
    /** The GM lines this task's loads read and its stores wrote, and the bytes of those loads (the L2 model). */
    private final GmFootprint.Lines readLines = new GmFootprint.Lines();
    private final GmFootprint.Lines writtenLines = new GmFootprint.Lines();
    private long trackedReadBytes;
    /** Per tile: when its last write is ready, and when its last reader stops reading it. */
    private long[] tileReady = new long[0];
    private long[] tileReadDone = new long[0];
    /** Per tensor parameter: when its last store is done. */
    private long[] tensorStored = new long[0];

    public KernelCostRecorder(HardwareSpec spec, CoreType core) {
        this.costs = new OpCosts(spec, core);
        this.issueCycles = spec.issueCyclesPerOp();
    }

    @Override
    public void beforeOp(TileOp op, Tile[] tiles, Tensor[] tensors, double[] registers) {
        if (tileReady.length < tiles.length) {
            tileReady = Arrays.copyOf(tileReady, tiles.length);
            tileReadDone = Arrays.copyOf(tileReadDone, tiles.length);
        }
        if (tensorStored.length < tensors.length) {
            tensorStored = Arrays.copyOf(tensorStored, tensors.length);
        }
        OpCost c = costs.of(op, tiles, tensors, registers);
        Operands io = Operands.of(op);
        issuedAt += issueCycles;
        pipeBusy[Pipe.SCALAR.ordinal()] += issueCycles;
        long start = Math.max(issuedAt, pipeFree[c.pipe().ordinal()]);
        for (int r : io.reads()) {
            start = Math.max(start, tileReady[r]);
        }
        for (int w : io.writes()) {
            start = Math.max(start, Math.max(tileReady[w], tileReadDone[w]));
        }
        if (op instanceof TileOp.Load l) {
            start = Math.max(start, tensorStored[l.tensor()]);
        } else if (op instanceof TileOp.LoadRows l) {
            start = Math.max(start, tensorStored[l.tensor()]);
        }
        long busyEnd = start + c.busyCycles();
        long ready = busyEnd + c.latencyCycles();
        pipeFree[c.pipe().ordinal()] = busyEnd;
        pipeBusy[c.pipe().ordinal()] += c.busyCycles();
        for (int r : io.reads()) {
            tileReadDone[r] = Math.max(tileReadDone[r], busyEnd);
        }
        for (int w : io.writes()) {
            tileReady[w] = ready;
        }
        if (op instanceof TileOp.Store s) {
            tensorStored[s.tensor()] = Math.max(tensorStored[s.tensor()], ready);
            bytesWritten += c.gmBytes();
            trackStore(s, tiles, tensors, registers);
        } else {
            bytesRead += c.gmBytes();
            if (op instanceof TileOp.Load l) {
                trackLoad(l, tensors, registers, c.gmBytes());
            }
        }
        end = Math.max(end, ready);
        ops++;
    }

    // kept out of beforeOp so that it stays small enough for the JIT to inline
    private void trackStore(TileOp.Store s, Tile[] tiles, Tensor[] tensors, double[] registers) {
        Tile src = tiles[s.src()];
        addLines(writtenLines, tensors[s.tensor()], s.offsets(), src.validRows(), src.validCols(), registers);
    }

    private void trackLoad(TileOp.Load l, Tensor[] tensors, double[] registers, long bytes) {
        trackedReadBytes += bytes;
        addLines(readLines, tensors[l.tensor()], l.offsets(), l.validRows().eval(registers),
                l.validCols().eval(registers), registers);
    }

    /**
     * Records the GM lines of a {@code rows × cols} region of {@code t} at {@code offsets} (one per dimension; the
     * region spans the last two), row by row. Computed without bounds checks: the executor reports a bad region.
     */
    private static void addLines(GmFootprint.Lines lines, Tensor t, List<Idx> offsets, long rows, long cols,
                                 double[] registers) {
        int rank = t.rank();
        if (rank < 2 || offsets.size() != rank || rows <= 0 || cols <= 0) {
            return;
        }
        long first = t.offset();
        for (int d = 0; d < rank; d++) {
            first += offsets.get(d).eval(registers) * t.stride(d);
        }
        int size = t.dtype().byteSize();
        long rowSpan = ((cols - 1) * t.stride(rank - 1) + 1) * size;
        if (t.stride(rank - 2) * size == rowSpan) { // whole rows back to back: one range
            lines.addRange(t.bufferAddress(), first * size, rows * rowSpan);
            return;
        }
        for (long r = 0; r < rows; r++) {
            lines.addRange(t.bufferAddress(), (first + r * t.stride(rank - 2)) * size, rowSpan);
        }
    }

    /** The cost of the ops seen since the last {@code finish()} (or since creation), and a reset for the next. */
    public TaskCost finish() {
        GmFootprint footprint = trackedReadBytes == 0 && bytesWritten == 0 ? GmFootprint.NONE
                : new GmFootprint(readLines.done(), writtenLines.done(), trackedReadBytes);
        readLines.clear();
        writtenLines.clear();
        TaskCost cost = new TaskCost(end, pipeBusy[Pipe.MTE_IN.ordinal()], pipeBusy[Pipe.CUBE.ordinal()],
                pipeBusy[Pipe.VECTOR.ordinal()], pipeBusy[Pipe.MTE_OUT.ordinal()], pipeBusy[Pipe.SCALAR.ordinal()],
                bytesRead, bytesWritten, ops, footprint);
        issuedAt = end = bytesRead = bytesWritten = ops = trackedReadBytes = 0;
        Arrays.fill(pipeFree, 0);
        Arrays.fill(pipeBusy, 0);
        Arrays.fill(tileReady, 0);
        Arrays.fill(tileReadDone, 0);
        Arrays.fill(tensorStored, 0);
        return cost;
    }
}
