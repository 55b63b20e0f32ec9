package dev.jpto.sweep;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * A case sent to a member's executor. It carries only the case's definition and the name of its sweep's results
 * map (Compact-serialized by {@link CompactSerializers}); the member runs it with its own {@link CaseRunner}, found
 * in the member's user context, so nothing received over the network names code to run. The member stores the
 * result in the map unless one is there already and returns the stored one: however often a case runs (a member
 * lost mid-case, a resumed coordinator), it has one result.
 */
final class CaseTask implements Callable<CaseResult>, HazelcastInstanceAware {
    /** The key of the member's {@link CaseRunner} in its user context. */
    static final String RUNNER = "jpto.sweep.runner";
    static final String RESULTS_PREFIX = "jpto-results-";

    private final SweepCase sweepCase;
    private final String resultsMap;
    private HazelcastInstance member;

    CaseTask(SweepCase sweepCase, String resultsMap) {
        this.sweepCase = Objects.requireNonNull(sweepCase);
        if (!resultsMap.startsWith(RESULTS_PREFIX)) {
            throw new IllegalArgumentException("not a sweep's results map: " + resultsMap);
        }
        this.resultsMap = resultsMap;
    }

    SweepCase sweepCase() {
        return sweepCase;
    }

    String resultsMap() {
        return resultsMap;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public CaseResult call() {
        if (member == null || !(member.getUserContext().get(RUNNER) instanceof CaseRunner runner)) {
            throw new IllegalStateException("this member runs no jpto cases (no " + RUNNER + " in its user context)");
        }
        CaseResult result = runner.run(sweepCase);
        CaseResult first = member.<String, CaseResult>getMap(resultsMap).putIfAbsent(sweepCase.id(), result);
        return first != null ? first : result;
    }
}
