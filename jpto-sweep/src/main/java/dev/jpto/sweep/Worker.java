package dev.jpto.sweep;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import java.io.PrintStream;
import java.util.Map;

/**
 * {@code jpto worker}: a cluster member that runs sweep cases, {@code slots} at a time, each as {@code jpto run}
 * would on this host, until it is stopped.
 *
 * @param out     its log: where it listens, members coming and going
 * @param cluster the cluster it starts or joins
 * @param slots   cases at once; each gets an even share of this host's memory budget
 * @param env     the environment ($JPTO_CACHE_DIR for programs given as source files)
 */
public record Worker(PrintStream out, ClusterSpec cluster, int slots, Map<String, String> env) {
    private static final long CHECK_MILLIS = 1000;

    public Worker {
        if (slots < 1) {
            throw new IllegalArgumentException("--slots must be >= 1: --slots " + slots + " (try "
                    + Sweep.defaultParallel() + ")");
        }
    }

    /**
     * Starts the member and serves cases until the calling thread is interrupted (Ctrl-C) or the member stops.
     *
     * @throws IllegalArgumentException when the cluster at the join addresses refuses this member (exit 2)
     */
    public void serve() throws InterruptedException {
        ProgramRefs refs = new ProgramRefs(env);
        HazelcastInstance member = SweepMember.start(cluster, slots, name -> new CaseRunner(refs, name,
                CaseRunner.share(slots)));
        try {
            member.getCluster().addMembershipListener(new MembershipListener() {
                @Override
                public void memberAdded(MembershipEvent e) {
                    out.println("[WORKER] joined: " + describe(e));
                }

                @Override
                public void memberRemoved(MembershipEvent e) {
                    out.println("[WORKER] left: " + describe(e));
                }
            });
            out.println("[WORKER] " + member.getName() + " listening at " + member.getCluster().getLocalMember()
                    .getAddress() + ", " + slots + " slot(s), in a cluster of " + member.getCluster().getMembers()
                    .size() + " member(s); Ctrl-C stops it");
            while (member.getLifecycleService().isRunning()) {
                Thread.sleep(CHECK_MILLIS);
            }
            out.println("[WORKER] the member stopped");
        } finally {
            member.shutdown();
        }
    }

    private static String describe(MembershipEvent e) {
        return e.getMember().getAddress() + (e.getMember().isLiteMember() ? " (a sweep submitting cases)"
                : " (" + SweepMember.slots(e.getMember()) + " slot(s))") + ", " + e.getMembers().size()
                + " member(s) now";
    }
}
