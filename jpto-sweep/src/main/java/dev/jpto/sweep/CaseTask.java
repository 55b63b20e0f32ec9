package dev.jpto.sweep;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * A case sent to a member's executor. It carries only the case's definition (Compact-serialized by
 * {@link CompactSerializers}); the member runs it with its own {@link CaseRunner}, found in the member's user
 * context, so nothing received over the network names code to run.
 */
final class CaseTask implements Callable<CaseResult>, HazelcastInstanceAware {
    /** The key of the member's {@link CaseRunner} in its user context. */
    static final String RUNNER = "jpto.sweep.runner";

    private final SweepCase sweepCase;
    private HazelcastInstance member;

    CaseTask(SweepCase sweepCase) {
        this.sweepCase = Objects.requireNonNull(sweepCase);
    }

    SweepCase sweepCase() {
        return sweepCase;
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
        return runner.run(sweepCase);
    }
}
