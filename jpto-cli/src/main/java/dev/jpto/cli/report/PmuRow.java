package dev.jpto.cli.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** One task's line of {@code pmu.csv}: its kernel, host wall time, estimated device cycles, bytes moved and FLOPs. */
record PmuRow(String kernel, long wallNs, long deviceCycles, long bytes, long flops) {

    static List<PmuRow> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            return List.of();
        }
        List<String> head = Arrays.asList(lines.getFirst().split(","));
        int kernel = column(head, "kernel", csv);
        int wall = column(head, "wall_ns", csv);
        int cycles = column(head, "device_cycles", csv);
        int read = column(head, "bytes_read", csv);
        int written = column(head, "bytes_written", csv);
        int flops = column(head, "flops", csv);
        List<PmuRow> rows = new ArrayList<>(lines.size() - 1);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",");
            try {
                rows.add(new PmuRow(f[kernel], Long.parseLong(f[wall]), Long.parseLong(f[cycles]),
                        Long.parseLong(f[read]) + Long.parseLong(f[written]), Long.parseLong(f[flops])));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(csv + ": line '" + line + "' is not a pmu.csv row (" + e + ")", e);
            }
        }
        return rows;
    }

    private static int column(List<String> head, String name, Path csv) {
        int i = head.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(csv + " has no column '" + name + "' (columns: " + head + ")");
        }
        return i;
    }
}
