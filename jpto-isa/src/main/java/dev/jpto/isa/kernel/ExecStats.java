package dev.jpto.isa.kernel;

/**
 * Work done by one kernel execution.
 *
 * <ul>
 * <li>{@code flops}: matmul 2·M·N·K; elementwise binary/unary/broadcast/compare one per result element;
 * reduce and cumsum one per source element; quantize two per element (the amax pass and the division);
 * dequantize one per element. Data movement (load, store, copy, fill, cast, transpose, select, gather,
 * top-k, iota) counts none.
 * <li>{@code bytesLoaded}/{@code bytesStored}: tensor bytes moved by load/load_rows and store (elements ×
 * the tensor's dtype size).
 * <li>{@code ops}: ops executed, loop iterations unrolled (a loop itself is not counted).
 * </ul>
 */
public record ExecStats(long flops, long bytesLoaded, long bytesStored, long ops) {
    public static final ExecStats ZERO = new ExecStats(0, 0, 0, 0);

    public ExecStats plus(ExecStats o) {
        return new ExecStats(flops + o.flops, bytesLoaded + o.bytesLoaded, bytesStored + o.bytesStored, ops + o.ops);
    }
}
