package dev.jpto.runtime.dfx;

import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code enable_pmu}: {@code pmu.csv}, one row per executed task, oldest start first, with the counters the
 * simulator knows. The device's hardware events (pipe utilisation, memory) do not exist here; the event type
 * asked for is recorded in every row, as on the device.
 *
 * <pre>
 * thread_id,core_id,core_type,task_id,kernel,start_ns,wall_ns,device_cycles,bytes_read,bytes_written,flops,event_type
 * 0,3,AIV,0x0000000000000007,add,10412,5310,412,8192,4096,1024,2
 * </pre>
 * {@code core_id} is within its core type; {@code start_ns} counts from the run's start; {@code wall_ns} is the
 * kernel body's wall time on its scheduler thread; {@code device_cycles} the kernel's estimated device cost
 * ({@code TaskContext.recordDeviceCost}, docs/device-model.md; 0 when not reported); bytes and FLOPs are what the body reported
 * ({@code TaskContext.recordWork}; compiled kernels report the tile executor's counts).
 */
final class PmuWriter {
    static final String FILE = "pmu.csv";
    static final String HEADER =
            "thread_id,core_id,core_type,task_id,kernel,start_ns,wall_ns,device_cycles,bytes_read,bytes_written,flops,"
                    + "event_type";

    private PmuWriter() {
    }

    static Path write(Path prefix, List<ExecInfo> execs, int eventType) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (ExecInfo e : execs) {
            sb.append(e.thread()).append(',').append(e.core()).append(',').append(e.coreType().name()).append(',')
                    .append(TaskInfo.hex(e.id())).append(',').append(csv(e.kernel())).append(',').append(e.start())
                    .append(',').append(e.wallNanos()).append(',').append(e.deviceCycles()).append(',').append(e.bytesRead()).append(',')
                    .append(e.bytesWritten()).append(',').append(e.flops()).append(',').append(eventType).append('\n');
        }
        Path file = prefix.resolve(FILE);
        try {
            Files.createDirectories(prefix);
            AtomicFile.writeString(file, sb);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
        return file;
    }

    /** Kernel names are identifiers; quote anything that would break a row anyway. */
    private static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
