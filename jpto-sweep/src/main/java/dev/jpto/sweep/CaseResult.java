package dev.jpto.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What one case did, as it travels from the member that ran it and as one line of {@code results.jsonl}.
 *
 * @param outcome      PASS, FAIL (an output differs from its golden) or ERROR (the run did not finish)
 * @param errorCode    the chip's error code name (e.g. HEAP_RING_DEADLOCK), or the kind of refusal; "" for none
 * @param verdicts     one {@code 'name' PASS shape=… (…)} line per output
 * @param stageMillis  wall time per stage, in the order run
 * @param effectiveUs  the benchmark's median, -1 without one
 * @param deviceUs     the chip's estimated device time of the run (of the last benchmark round with bench), µs;
 *                     -1 when the run has no estimate (it failed, or an L3 run's merged report)
 * @param heapHighWater ring heap high-water marks (bytes) per ring; empty when the run failed
 * @param heapCapacity  ring heap capacities in force, per ring
 */
public record CaseResult(String caseId, String program, String preset, Map<String, String> runtimeCfg,
                         String platform, long seed, String expect, String outcome, int exitCode, String errorCode,
                         String message, List<String> verdicts, Map<String, Long> stageMillis, double effectiveUs, double deviceUs,
                         List<Long> heapHighWater, List<Long> heapCapacity, String member) {
    public static final String PASS = "PASS";
    public static final String FAIL = "FAIL";
    public static final String ERROR = "ERROR";

    /** The outcome compared with the expectation: a failure shows as FAIL, a chip error as its code name. */
    @JsonProperty("observed")
    public String observed() {
        return outcome.equals(ERROR) && !errorCode.isEmpty() ? errorCode : outcome;
    }

    /** Whether the case came out as its sweep file expects (PASS when it names no expectation). */
    @JsonProperty("as_expected")
    public boolean asExpected() {
        return observed().equals(expect);
    }
}
