package dev.jpto.runtime.device;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TileDecl;
import dev.jpto.isa.op.TileOp;
import dev.jpto.runtime.CoreType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Where one kernel's tiles live on its core, and whether they fit. Every declared tile keeps its own space for the
 * whole kernel, so a kernel that double-buffers (two tiles it alternates) pays for both, as on the device.
 *
 * <p>A kernel with a matmul runs on a cube core: a tile loaded from GM is in L1, and so is any tile that is neither
 * loaded nor an accumulator; the accumulator of a matmul is in L0C; the left and right operands are moved into
 * L0A and L0B for their matmul, one matmul at a time ({@link OnChipBuffer#staging()}). In the L0 buffers a tile
 * is padded to whole cube fractals (16 rows or columns by 32 bytes of K). A kernel
 * without a matmul runs on a vector core and has every tile in UB. In L1 and UB each row of a tile is padded to
 * the 32-byte block the buffers are addressed in.
 */
public record KernelPlacement(String kernel, CoreType core, List<BufferUse> buffers) {
    /** The buffers' address granularity in bytes, and the K extent of one cube fractal in bytes. */
    static final int BLOCK_BYTES = 32;
    private static final int FRACTAL = HardwareSpec.CubeRates.FRACTAL_MN;

    public KernelPlacement {
        buffers = List.copyOf(buffers);
    }

    /** Places {@code kernel}'s tiles in the buffers of {@code spec}'s cores. */
    public static KernelPlacement of(Kernel kernel, HardwareSpec spec) {
        List<Map<OnChipBuffer, Long>> perTile = new ArrayList<>();
        kernel.tiles().forEach(t -> perTile.add(new EnumMap<>(OnChipBuffer.class)));
        boolean cube = assignCubeRoles(kernel.body(), kernel.tiles(), perTile);
        for (int i = 0; i < perTile.size(); i++) {
            Map<OnChipBuffer, Long> where = perTile.get(i);
            TileDecl t = kernel.tiles().get(i);
            if (!cube) {
                where.put(OnChipBuffer.UB, rowPadded(t));
            } else if (!where.containsKey(OnChipBuffer.L1) && !where.containsKey(OnChipBuffer.L0C)) {
                where.put(OnChipBuffer.L1, rowPadded(t));
            }
        }
        List<BufferUse> uses = new ArrayList<>();
        for (OnChipBuffer b : OnChipBuffer.values()) {
            if (b.core() != (cube ? CoreType.AIC : CoreType.AIV)) {
                continue;
            }
            List<TilePlacement> tiles = new ArrayList<>();
            for (int i = 0; i < perTile.size(); i++) {
                Long bytes = perTile.get(i).get(b);
                if (bytes != null) {
                    tiles.add(new TilePlacement(kernel.tiles().get(i), bytes));
                }
            }
            uses.add(new BufferUse(b, b.capacity(spec), tiles));
        }
        return new KernelPlacement(kernel.name(), cube ? CoreType.AIC : CoreType.AIV, uses);
    }

    /** The buffers the tiles overflow; empty when the kernel fits. */
    public List<BufferUse> overflows() {
        return buffers.stream().filter(b -> !b.fits()).toList();
    }

    /** Records each tile's cube-core buffers; true when the kernel has a matmul (so runs on a cube core). */
    private static boolean assignCubeRoles(List<TileOp> ops, List<TileDecl> tiles,
                                           List<Map<OnChipBuffer, Long>> perTile) {
        boolean cube = false;
        for (TileOp op : ops) {
            switch (op) {
                case TileOp.MatMul m -> {
                    cube = true;
                    TileDecl a = tiles.get(m.a()), b = tiles.get(m.b()), c = tiles.get(m.c());
                    put(perTile, m.a(), OnChipBuffer.L0A, padded(a, FRACTAL, kStep(a)));
                    put(perTile, m.b(), OnChipBuffer.L0B, m.transposeB() ? padded(b, FRACTAL, kStep(b))
                            : padded(b, kStep(b), FRACTAL));
                    put(perTile, m.c(), OnChipBuffer.L0C, padded(c, FRACTAL, FRACTAL));
                }
                case TileOp.Load l -> put(perTile, l.dst(), OnChipBuffer.L1, rowPadded(tiles.get(l.dst())));
                case TileOp.LoadRows l -> put(perTile, l.dst(), OnChipBuffer.L1, rowPadded(tiles.get(l.dst())));
                case TileOp.Loop loop -> cube |= assignCubeRoles(loop.body(), tiles, perTile);
                default -> { }
            }
        }
        return cube;
    }

    private static void put(List<Map<OnChipBuffer, Long>> perTile, int tile, OnChipBuffer buffer, long bytes) {
        perTile.get(tile).merge(buffer, bytes, Math::max);
    }

    /** Rows × the row's bytes rounded up to the 32-byte block. */
    static long rowPadded(TileDecl t) {
        return (long) t.rows() * roundUp((long) t.cols() * t.dtype().byteSize(), BLOCK_BYTES);
    }

    /** Elements of {@code t}'s dtype in one fractal's K extent (32 bytes). */
    private static int kStep(TileDecl t) {
        return Math.max(1, BLOCK_BYTES / t.dtype().byteSize());
    }

    /** The tile with its rows and columns rounded up to whole fractals ({@code rowStep} by {@code colStep}). */
    static long padded(TileDecl t, int rowStep, int colStep) {
        return roundUp(t.rows(), rowStep) * roundUp(t.cols(), colStep) * t.dtype().byteSize();
    }

    private static long roundUp(long n, long step) {
        return Math.ceilDiv(n, step) * step;
    }
}
