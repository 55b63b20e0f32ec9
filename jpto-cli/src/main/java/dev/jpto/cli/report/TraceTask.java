package dev.jpto.cli.report;

import java.util.List;

/**
 * One task as a swimlane trace shows it: its runtime id ({@code ring << 32 | local}), kernel, the lane (core) it ran
 * on, the host scheduler thread that ran it (−1 when the trace does not say), and when, in microseconds from the
 * trace's origin.
 */
record TraceTask(long id, String kernel, int lane, int thread, double startUs, double durUs, List<String> args) {
    double endUs() {
        return startUs + durUs;
    }
}
