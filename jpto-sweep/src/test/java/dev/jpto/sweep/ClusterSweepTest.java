package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker members in this JVM on loopback, joined by a submitting lite member as {@code jpto sweep --join} does:
 * cases spread over the workers, a worker lost mid-sweep, a coordinator stopped and resumed, a wrong secret.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ClusterSweepTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("a test secret of 32 characters!!");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final List<HazelcastInstance> workers = new ArrayList<>();

    @AfterEach
    void stopWorkers() {
        workers.forEach(w -> w.getLifecycleService().terminate());
    }

    private Map<String, String> env() {
        return Map.of("JPTO_CACHE_DIR", dir.resolve("cache").toString());
    }

    /** A worker with {@code slots} slots; the first starts the cluster, the others join it. */
    private HazelcastInstance worker(ClusterSecret secret, int slots) {
        List<ClusterSpec.Address> join = workers.isEmpty() ? List.of() : List.of(address(workers.getFirst()));
        ClusterSpec spec = new ClusterSpec(secret.clusterName("test"), new ClusterSpec.Address("127.0.0.1", 0), join);
        HazelcastInstance w = SweepMember.start(spec, slots, name -> new CaseRunner(new ProgramRefs(env()), name,
                CaseRunner.share(slots)));
        workers.add(w);
        return w;
    }

    private static ClusterSpec.Address address(HazelcastInstance member) {
        var a = member.getCluster().getLocalMember().getAddress();
        return new ClusterSpec.Address(a.getHost(), a.getPort());
    }

    private Sweep submitter() {
        ClusterSpec spec = new ClusterSpec(SECRET.clusterName("test"), new ClusterSpec.Address("127.0.0.1", 0),
                List.of(address(workers.getFirst())));
        return new Sweep(new PrintStream(log, true, StandardCharsets.UTF_8), 1, Duration.ofMinutes(3), env(), spec);
    }

    private String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    private static List<JsonNode> results(Path out) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> nodes = new ArrayList<>();
        for (String l : Files.readAllLines(out.resolve("results.jsonl"))) {
            nodes.add(json.readTree(l));
        }
        return nodes;
    }

    private Path sweepFile(int seeds, int bench) throws IOException {
        StringBuilder s = new StringBuilder("programs: [basic.matmul]\npresets: [tiny]\nbench: " + bench
                + "\nseeds: [0");
        for (int i = 1; i < seeds; i++) {
            s.append(", ").append(i);
        }
        return Files.writeString(dir.resolve("sweep.yaml"), s.append("]\n"));
    }

    /** Waits (bounded) until results.jsonl has at least {@code n} lines. */
    private static void awaitResults(Path out, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (Files.exists(out.resolve("results.jsonl")) && results(out).size() >= n) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + n + " result(s) within 2 minutes");
    }

    /** Waits (bounded) until {@code worker} is running a case, i.e. has started more than it completed. */
    private static void awaitRunning(HazelcastInstance worker) throws InterruptedException {
        var stats = (java.util.function.Supplier<com.hazelcast.executor.LocalExecutorStats>)
                () -> worker.getExecutorService(SweepMember.EXECUTOR).getLocalExecutorStats();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (stats.get().getStartedTaskCount() <= stats.get().getCompletedTaskCount()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(worker.getName() + " ran no case within 2 minutes");
            }
            Thread.sleep(10);
        }
    }

    /** Runs the sweep on a thread of its own, as the jpto sweep process would; its exit code or exception in ended. */
    private Thread coordinate(Path file, Path out, AtomicReference<Object> ended) {
        return Thread.ofPlatform().start(() -> {
            try {
                ended.set(submitter().run(file, out));
            } catch (Exception e) {
                ended.set(e);
            }
        });
    }

    @Test
    void casesSpreadOverThreeWorkersAndEachReportsOnce() throws Exception {
        for (int i = 0; i < 3; i++) {
            worker(SECRET, 1);
        }
        Path file = sweepFile(9, 0);
        Path out = dir.resolve("out");
        assertThat(submitter().run(file, out)).as(log()).isZero();

        List<JsonNode> lines = results(out);
        assertThat(lines.stream().map(l -> l.get("case_id").asText()))
                .containsExactlyInAnyOrderElementsOf(SweepFile.read(file, env()).stream().map(SweepCase::id).toList());
        assertThat(lines).allMatch(l -> l.get("outcome").asText().equals("PASS"));
        // each worker had a free slot when the first three cases were placed
        assertThat(lines.stream().map(l -> l.get("member").asText()).distinct())
                .containsExactlyInAnyOrderElementsOf(workers.stream().map(HazelcastInstance::getName).toList());
        assertThat(log()).contains("[SWEEP] 9 case(s): 9 as expected, 0 unexpected");
        // the submitter left, the workers stay and hold no result of the finished sweep
        assertThat(workers.getFirst().getCluster().getMembers()).filteredOn(m -> !m.isLiteMember()).hasSize(3);
        assertThat(workers.getFirst().getDistributedObjects()).noneMatch(o -> o.getName().startsWith("jpto-results-"));
    }

    @Test
    void aWorkerLostMidSweepHasItsCasesRunElsewhereAndEveryCaseHasOneResult() throws Exception {
        worker(SECRET, 1);
        HazelcastInstance doomed = worker(SECRET, 1);
        worker(SECRET, 1);
        Path file = sweepFile(9, 100);
        Path out = dir.resolve("out");
        AtomicReference<Object> ended = new AtomicReference<>();
        Thread coordinator = coordinate(file, out, ended);
        awaitRunning(doomed);
        doomed.getLifecycleService().terminate(); // as a killed worker process: no goodbye
        coordinator.join(Duration.ofMinutes(3));
        assertThat(coordinator.isAlive()).isFalse();
        assertThat(ended.get()).as(log()).isEqualTo(0);
        List<JsonNode> lines = results(out);
        assertThat(lines).hasSize(9).allMatch(l -> l.get("outcome").asText().equals("PASS"));
        assertThat(lines.stream().map(l -> l.get("case_id").asText()).distinct()).hasSize(9);
        assertThat(log()).contains("left while running 1 case(s); re-queued");
    }

    @Test
    void aCaseWhoseWorkerIsLostTwiceIsRecordedAsWorkerLost() throws Exception {
        worker(SECRET, 1);
        worker(SECRET, 1);
        Path file = sweepFile(1, 20000); // long enough to be caught running on a loaded host
        Path out = dir.resolve("out");
        AtomicReference<Object> ended = new AtomicReference<>();
        Thread coordinator = coordinate(file, out, ended);
        // the one case runs on one worker: lose it, then lose the one it was re-queued on
        for (int lost = 0; lost < 2; lost++) {
            HazelcastInstance running = null;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (running == null && System.nanoTime() < deadline) {
                running = workers.stream().filter(m -> m.getLifecycleService().isRunning() && m
                        .getExecutorService(SweepMember.EXECUTOR).getLocalExecutorStats().getStartedTaskCount() > 0)
                        .findFirst().orElse(null);
                Thread.sleep(10);
            }
            assertThat(running).as(log()).isNotNull();
            running.getLifecycleService().terminate();
        }
        coordinator.join(Duration.ofMinutes(2));
        assertThat(ended.get()).as(log()).isEqualTo(1);
        assertThat(results(out)).singleElement().satisfies(l -> {
            assertThat(l.get("error_code").asText()).isEqualTo("WORKER_LOST");
            assertThat(l.get("exit_code").asInt()).isEqualTo(3);
            assertThat(l.get("message").asText()).startsWith("the member running it left 2 times");
        });
    }

    @Test
    void aWorkerWithAnotherSecretIsRefusedAndTheClusterStaysAsItWas() {
        worker(SECRET, 1);
        ClusterSecret wrong = ClusterSecret.of("another secret of 32 characters!");
        assertThatThrownBy(() -> worker(wrong, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not admit this one")
                .hasMessageContaining("--secret-file");
        assertThat(workers.getFirst().getCluster().getMembers()).hasSize(1);
    }

    @Test
    void aSubmitterWithAnotherSecretIsRefusedWithExitTwoMessage() throws IOException {
        worker(SECRET, 1);
        ClusterSpec wrong = new ClusterSpec(ClusterSecret.of("another secret of 32 characters!").clusterName("test"),
                new ClusterSpec.Address("127.0.0.1", 0), List.of(address(workers.getFirst())));
        Path file = sweepFile(1, 0);
        Sweep sweep = new Sweep(new PrintStream(log, true, StandardCharsets.UTF_8), 1, Duration.ofMinutes(1), env(),
                wrong);
        assertThatThrownBy(() -> sweep.run(file, dir.resolve("out"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not admit this one");
        assertThat(dir.resolve("out").resolve("results.jsonl")).doesNotExist();
    }

    @Test
    void aStoppedCoordinatorLeavesCompleteLinesAndTheResumedOneRunsOnlyTheRest() throws Exception {
        worker(SECRET, 1);
        worker(SECRET, 1);
        Path file = sweepFile(6, 10);
        Path out = dir.resolve("out");
        AtomicReference<Object> ended = new AtomicReference<>();
        Thread coordinator = coordinate(file, out, ended);
        awaitResults(out, 1);
        coordinator.interrupt(); // Ctrl-C
        coordinator.join(Duration.ofMinutes(1));
        assertThat(ended.get()).as(log()).isInstanceOf(InterruptedException.class);
        int first = results(out).size();
        assertThat(first).isBetween(1, 5);

        log.reset();
        assertThat(submitter().run(file, out)).as(log()).isZero();
        assertThat(log()).contains("6 case(s), " + first + " already in", (6 - first) + " to run");
        List<JsonNode> lines = results(out);
        assertThat(lines).hasSize(6);
        assertThat(lines.stream().map(l -> l.get("case_id").asText()).distinct()).hasSize(6);
    }

    @Test
    void aResumedCoordinatorTakesTheResultsTheClusterHoldsForItsSweepInsteadOfRunningThem() throws Exception {
        HazelcastInstance worker = worker(SECRET, 1);
        Path file = sweepFile(2, 0);
        List<SweepCase> cases = SweepFile.read(file, env());
        Path out = Files.createDirectories(dir.resolve("out"));
        // what a stopped coordinator leaves: one line in results.jsonl, and a result its worker stored after it died
        ResultsFile.open(out).append(CaseRunner.lost(cases.getFirst(), "an earlier coordinator", "recorded"));
        String map = ResultsMapName.of(out, false);
        CaseResult held = CaseRunner.lost(cases.getLast(), "the worker of a stopped coordinator", "held");
        worker.<String, CaseResult>getMap(map).set(held.caseId(), held);

        assertThat(submitter().run(file, out)).as(log()).isEqualTo(1); // two WORKER_LOST results are unexpected
        assertThat(log()).contains("2 case(s), 1 already in", "1 to run",
                "[SWEEP] 1 result(s) already held by the cluster (" + map + ")");
        assertThat(results(out)).hasSize(2).last().satisfies(l -> {
            assertThat(l.get("case_id").asText()).isEqualTo(cases.getLast().id());
            assertThat(l.get("member").asText()).isEqualTo("the worker of a stopped coordinator");
        });
        assertThat(worker.getExecutorService(SweepMember.EXECUTOR).getLocalExecutorStats().getStartedTaskCount())
                .as("nothing ran").isZero();
    }
}
