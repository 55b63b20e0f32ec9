package dev.jpto.runtime.device;

/**
 * The device cost of one kernel execution: {@code cycles} from its first op's issue to its last result, the busy
 * cycles of each pipe, the GM bytes moved, the ops executed and the GM lines touched (for the L2 model).
 */
public record TaskCost(long cycles, long mteInBusy, long cubeBusy, long vectorBusy, long mteOutBusy,
                       long scalarBusy, long gmBytesRead, long gmBytesWritten, long ops, GmFootprint footprint) {
    public static final TaskCost ZERO = new TaskCost(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** A cost whose GM lines are not known. */
    public TaskCost(long cycles, long mteInBusy, long cubeBusy, long vectorBusy, long mteOutBusy, long scalarBusy,
                    long gmBytesRead, long gmBytesWritten, long ops) {
        this(cycles, mteInBusy, cubeBusy, vectorBusy, mteOutBusy, scalarBusy, gmBytesRead, gmBytesWritten, ops,
                GmFootprint.NONE);
    }

    /** Busy cycles of {@code pipe}. */
    public long busy(Pipe pipe) {
        return switch (pipe) {
            case MTE_IN -> mteInBusy;
            case CUBE -> cubeBusy;
            case VECTOR -> vectorBusy;
            case MTE_OUT -> mteOutBusy;
            case SCALAR -> scalarBusy;
        };
    }

    public long gmBytes() {
        return gmBytesRead + gmBytesWritten;
    }
}
