package dev.jpto.runtime.device;

/**
 * The device cost of one kernel execution: {@code cycles} from its first op's issue to its last result, the busy
 * cycles of each pipe, the GM bytes moved and the ops executed.
 */
public record TaskCost(long cycles, long mteInBusy, long cubeBusy, long vectorBusy, long mteOutBusy,
                       long scalarBusy, long gmBytesRead, long gmBytesWritten, long ops) {
    public static final TaskCost ZERO = new TaskCost(0, 0, 0, 0, 0, 0, 0, 0, 0);

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
