package dev.jpto.tools.fuzz;

import dev.jpto.runtime.ErrorCode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Counts of a fuzz session: programs, how they ended, and every runtime error code seen. */
public final class FuzzSummary {
    private long programs;
    private long passes;
    private long tasks;
    private long ringErrors;
    private final EnumMap<Outcome.Kind, Long> findings = new EnumMap<>(Outcome.Kind.class);
    private final EnumMap<ErrorCode, Long> codes = new EnumMap<>(ErrorCode.class);
    private final List<Long> findingSeeds = new ArrayList<>();
    private long elapsedNanos;
    private boolean interrupted;

    void add(long seed, Outcome o) {
        programs++;
        switch (o) {
            case Outcome.Pass p -> {
                passes++;
                tasks += p.tasks();
            }
            case Outcome.ExpectedError e -> {
                ringErrors++;
                codes.merge(e.code(), 1L, Long::sum);
            }
            case Outcome.Finding f -> {
                findings.merge(f.kind(), 1L, Long::sum);
                if (f.code() != null) {
                    codes.merge(f.code(), 1L, Long::sum);
                }
                findingSeeds.add(seed);
            }
        }
    }

    void elapsed(long nanos) {
        elapsedNanos = nanos;
    }

    /** The session was interrupted: the program that was running then is not counted. */
    void interrupted() {
        interrupted = true;
    }

    /** True if the session stopped on an interrupt (Ctrl-C) before its count or time ran out. */
    public boolean wasInterrupted() {
        return interrupted;
    }

    public long programs() {
        return programs;
    }

    public long passes() {
        return passes;
    }

    /** Runs that failed with a ring error the case's sizes explain. */
    public long ringErrors() {
        return ringErrors;
    }

    public long hangs() {
        return findings.getOrDefault(Outcome.Kind.HANG, 0L);
    }

    public long wrongResults() {
        return findings.getOrDefault(Outcome.Kind.WRONG_RESULT, 0L);
    }

    public long unexpectedErrors() {
        return findings.getOrDefault(Outcome.Kind.UNEXPECTED_ERROR, 0L);
    }

    public long findings() {
        return hangs() + wrongResults() + unexpectedErrors();
    }

    /** Seeds of the cases that were findings, in order. */
    public List<Long> findingSeeds() {
        return List.copyOf(findingSeeds);
    }

    /** Every runtime error code seen (expected or not), with its count. */
    public Map<ErrorCode, Long> errorCodes() {
        return new EnumMap<>(codes);
    }

    public double programsPerSecond() {
        return elapsedNanos == 0 ? 0 : programs / (elapsedNanos / 1e9);
    }

    /** "programs=… passes=… hangs=… wrong_results=… unexpected_errors=… ring_errors=… (… programs/s, …s)". */
    public String countsLine() {
        return String.format(Locale.ROOT, "programs=%d passes=%d hangs=%d wrong_results=%d unexpected_errors=%d "
                        + "ring_errors=%d tasks_passed=%d (%.1f programs/s, %.1fs)", programs, passes, hangs(),
                wrongResults(), unexpectedErrors(), ringErrors, tasks, programsPerSecond(), elapsedNanos / 1e9);
    }

    /** "error codes: 1 SCOPE_DEADLOCK=12, 2 HEAP_RING_DEADLOCK=30" (or "none"). */
    public String codesLine() {
        StringBuilder sb = new StringBuilder("error codes: ");
        if (codes.isEmpty()) {
            return sb.append("none").toString();
        }
        String sep = "";
        for (Map.Entry<ErrorCode, Long> e : codes.entrySet()) {
            sb.append(sep).append(e.getKey().code()).append(' ').append(e.getKey()).append('=').append(e.getValue());
            sep = ", ";
        }
        return sb.toString();
    }
}
