package dev.jpto.sweep;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.exception.TargetDisconnectedException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's loop: places cases on the members with free slots (the {@value SweepMember#SLOTS} attribute,
 * the emptiest member first), records each result once, and re-queues the cases of a member that leaves. A case
 * whose member is lost {@value #MAX_LOSSES} times is recorded as {@value #WORKER_LOST} rather than tried again: it
 * may be what brings its members down.
 */
final class Dispatcher {
    static final int MAX_LOSSES = 2;
    static final String WORKER_LOST = "WORKER_LOST";
    private static final long WAKE_MILLIS = 1000;

    /** What the loop reacts to; callbacks and listeners only post these, the loop alone changes its state. */
    private sealed interface Event {
        record Done(SweepCase c, UUID member, CaseResult result) implements Event { }

        record Failed(SweepCase c, UUID member, Throwable cause) implements Event { }

        record Joined() implements Event { }

        record Left(Member member) implements Event { }
    }

    private final HazelcastInstance self;
    private final IMap<String, CaseResult> map;
    private final ResultsFile results;
    private final PrintStream out;
    private final Duration caseTimeout;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Deque<SweepCase> queue = new ArrayDeque<>();
    private final Map<String, UUID> running = new HashMap<>();
    private final Map<String, Integer> losses = new HashMap<>();
    private final SweepProgress view;
    private Progress progress;

    Dispatcher(HazelcastInstance self, String resultsMap, ResultsFile results, PrintStream out, Duration caseTimeout,
               SweepProgress view) {
        this.self = self;
        this.view = view;
        this.map = self.getMap(resultsMap);
        this.results = results;
        this.out = out;
        this.caseTimeout = caseTimeout;
    }

    /**
     * Runs {@code todo} to one result each; cases whose result the cluster already holds (from a coordinator that
     * stopped) are recorded without running.
     *
     * @return false when no result came within the case timeout
     */
    boolean run(List<SweepCase> todo) throws InterruptedException {
        String mapName = map.getName();
        Map<String, CaseResult> held = map.getAll(new java.util.HashSet<>(todo.stream().map(SweepCase::id)
                .toList()));
        if (!held.isEmpty()) {
            say("[SWEEP] " + held.size() + " result(s) already held by the cluster (" + mapName + ")");
        }
        UUID listener = self.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent e) {
                events.add(new Event.Joined()); // wakes the loop to place cases on the newcomer
            }

            @Override
            public void memberRemoved(MembershipEvent e) {
                events.add(new Event.Left(e.getMember()));
            }
        });
        try {
            return loop(todo, held);
        } finally {
            view.end();
            self.getCluster().removeMembershipListener(listener);
        }
    }

    private boolean loop(List<SweepCase> todo, Map<String, CaseResult> held) throws InterruptedException {
        progress = new Progress(view, todo);
        for (SweepCase c : todo) {
            CaseResult r = held.get(c.id());
            if (r != null) {
                record(r);
            } else {
                queue.add(c);
            }
        }
        IExecutorService executor = self.getExecutorService(SweepMember.EXECUTOR);
        long lastProgress = System.nanoTime();
        boolean announcedWait = false;
        while (progress.remaining() > 0) {
            int placed = place(executor);
            if (running.isEmpty() && placed == 0 && !queue.isEmpty() && !announcedWait) {
                say("[SWEEP] waiting for a member with free slots (start one with 'jpto worker'); giving up "
                        + "after " + caseTimeout.toSeconds() + " s (--case-timeout)");
                announcedWait = true;
            }
            long left = caseTimeout.toNanos() - (System.nanoTime() - lastProgress);
            if (left <= 0) {
                say("[SWEEP] no result within " + caseTimeout.toSeconds() + " s (--case-timeout): "
                        + progress.remaining() + " case(s) unfinished; run again with the same --out to resume");
                return false;
            }
            Event e = events.poll(Math.min(WAKE_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1),
                    TimeUnit.MILLISECONDS);
            if (e != null && handle(e)) {
                lastProgress = System.nanoTime();
                announcedWait = false;
            }
        }
        return true;
    }

    /** A line of its own: a bar on the terminal is cleared first (the next result draws it again). */
    private void say(String line) {
        view.end();
        out.println(line);
    }

    /** Submits queued cases to members with free slots; returns how many. */
    private int place(IExecutorService executor) {
        int placed = 0;
        while (!queue.isEmpty()) {
            Member target = self.getCluster().getMembers().stream().filter(m -> free(m) > 0)
                    .max(Comparator.comparingInt(this::free)).orElse(null);
            if (target == null) {
                return placed;
            }
            SweepCase c = queue.poll();
            if (!progress.isPending(c.id())) {
                continue; // its result came from the member it was lost on, after all
            }
            UUID member = target.getUuid();
            running.put(c.id(), member);
            ExecutionCallback<CaseResult> callback = new ExecutionCallback<>() {
                @Override
                public void onResponse(CaseResult response) {
                    events.add(new Event.Done(c, member, response));
                }

                @Override
                public void onFailure(Throwable t) {
                    events.add(new Event.Failed(c, member, t));
                }
            };
            try {
                executor.submitToMember(new CaseTask(c, map.getName()), target, callback);
            } catch (RuntimeException e) { // e.g. the member left between the look and the submit
                callback.onFailure(e);
            }
            placed++;
        }
        return placed;
    }

    private int free(Member m) {
        int busy = (int) running.values().stream().filter(m.getUuid()::equals).count();
        return SweepMember.slots(m) - busy;
    }

    /** Applies one event; true when a result was recorded. */
    private boolean handle(Event e) {
        switch (e) {
            case Event.Done d -> {
                running.remove(d.c().id(), d.member());
                return record(d.result());
            }
            case Event.Failed f -> {
                if (!running.remove(f.c().id(), f.member())) {
                    return false; // re-queued already, when its member left
                }
                if (isLoss(f.cause(), f.member())) {
                    return lost(f.c(), f.member().toString());
                }
                return record(firstResult(CaseRunner.failed(f.c(), self.getName(), f.cause())));
            }
            case Event.Joined j -> {
                return false;
            }
            case Event.Left l -> {
                List<String> gone = running.entrySet().stream().filter(r -> r.getValue().equals(l.member().getUuid()))
                        .map(Map.Entry::getKey).toList();
                if (!gone.isEmpty()) {
                    say("[SWEEP] member " + l.member().getAddress() + " left while running " + gone.size()
                            + " case(s); re-queued");
                }
                boolean recorded = false;
                for (String id : gone) {
                    running.remove(id);
                    recorded |= lost(progress.caseOf(id), l.member().getAddress().toString());
                }
                return recorded;
            }
        }
    }

    private boolean isLoss(Throwable t, UUID member) {
        boolean present = self.getCluster().getMembers().stream().anyMatch(m -> m.getUuid().equals(member));
        return !present || t instanceof MemberLeftException || t instanceof TargetNotMemberException
                || t instanceof TargetDisconnectedException
                || t instanceof HazelcastInstanceNotActiveException && self.getLifecycleService().isRunning();
    }

    /** Re-queues {@code c} after its member was lost, or records it as WORKER_LOST the second time. */
    private boolean lost(SweepCase c, String member) {
        int n = losses.merge(c.id(), 1, Integer::sum);
        if (n < MAX_LOSSES) {
            queue.addFirst(c);
            return false;
        }
        CaseResult r = CaseRunner.lost(c, self.getName(), "the member running it left " + n + " times (last: "
                + member + "); not tried again");
        return record(firstResult(r));
    }

    /** The result the cluster holds for the case: {@code r} unless a member stored one first. */
    private CaseResult firstResult(CaseResult r) {
        try {
            CaseResult first = map.putIfAbsent(r.caseId(), r);
            return first != null ? first : r;
        } catch (com.hazelcast.partition.NoDataMemberInClusterException e) {
            return r; // every worker is gone, and with them the map: results.jsonl is the record
        }
    }

    /** Appends {@code r} to results.jsonl unless its case has a result already. */
    private boolean record(CaseResult r) {
        if (results.has(r.caseId()) || !progress.isPending(r.caseId())) {
            return false;
        }
        results.append(r);
        progress.done(r);
        return true;
    }

    /** The cases still without a result, and the counts shown per result. */
    private static final class Progress {
        private final SweepProgress view;
        private final int total;
        private final Map<String, SweepCase> pending = new HashMap<>();
        private final long start = System.nanoTime();
        private int done;
        private int unexpected;

        Progress(SweepProgress view, List<SweepCase> todo) {
            this.view = view;
            this.total = todo.size();
            todo.forEach(c -> pending.put(c.id(), c));
        }

        int remaining() {
            return total - done;
        }

        boolean isPending(String id) {
            return pending.containsKey(id);
        }

        SweepCase caseOf(String id) {
            return pending.get(id);
        }

        void done(CaseResult r) {
            pending.remove(r.caseId());
            done++;
            unexpected += r.asExpected() ? 0 : 1;
            long eta = (System.nanoTime() - start) / done * (total - done) / 1_000_000_000L;
            view.result(new SweepProgress.Tally(done, unexpected, total, eta), Sweep.label(r) + " " + r.observed()
                    + (r.asExpected() ? "" : " (expected " + r.expect() + ")"), r.asExpected());
        }
    }
}
