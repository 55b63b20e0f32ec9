package dev.jpto.sweep;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.TcpIpConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * A Hazelcast member of a sweep: the one {@code jpto sweep} starts in its own process, a {@code jpto worker}, or the
 * lite member a {@code jpto sweep --join} submits through. It binds only the address it is given (loopback by
 * default), discovers members only from its join list (no multicast, no cloud auto-detection), registers the
 * Compact serializers of what crosses the cluster, and announces its free slots as a member attribute. Phone-home
 * and Hazelcast's own logging are off.
 */
final class SweepMember {
    static final String EXECUTOR = "jpto-cases";
    /** The member attribute giving how many cases a member runs at once; absent on a lite (submitting) member. */
    static final String SLOTS = "jpto.slots";
    /** Results maps of sweeps; kept a day at most on long-lived workers (the sweep's results.jsonl stays). */
    static final String RESULTS_MAPS = CaseTask.RESULTS_PREFIX + "*";
    private static final int PROBE_MILLIS = 1000;

    /**
     * Hazelcast's own JUL logger, held so its level sticks: it warns about JDK-internal access before the config's
     * logging type applies, which a user of {@code jpto sweep} can do nothing about. Errors still show.
     */
    private static final java.util.logging.Logger HAZELCAST_LOG = java.util.logging.Logger.getLogger("com.hazelcast");

    static {
        HAZELCAST_LOG.setLevel(java.util.logging.Level.SEVERE);
    }

    private SweepMember() {
    }

    /** The single member of {@code jpto sweep} without cluster options: {@code slots} cases at a time. */
    static HazelcastInstance embedded(int slots, Function<String, CaseRunner> runner) {
        return start(ClusterSpec.embedded(), slots, runner);
    }

    /**
     * Starts a member of {@code cluster} running {@code slots} cases at a time with {@code runner}; with
     * {@code slots} 0 a lite member that runs none (a submitter; {@code runner} unused).
     *
     * @throws IllegalArgumentException when the cluster refused this member (see {@link #requireAdmitted})
     */
    static HazelcastInstance start(ClusterSpec cluster, int slots, Function<String, CaseRunner> runner) {
        Config config = new Config();
        config.setClusterName(cluster.clusterName());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "none");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.join.seconds", "30"); // every wait bounded
        config.setProperty("hazelcast.graceful.shutdown.max.wait", "30");
        NetworkConfig network = config.getNetworkConfig();
        network.getInterfaces().setEnabled(true).addInterface(cluster.bind().host());
        network.setPort(cluster.bind().port() == 0 ? ClusterSpec.DEFAULT_PORT : cluster.bind().port());
        network.setPortAutoIncrement(cluster.bind().port() == 0);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        // members of one cluster must share a join type, so a worker starting a cluster uses TCP/IP too
        TcpIpConfig tcp = join.getTcpIpConfig().setEnabled(!cluster.isEmbedded());
        cluster.join().forEach(a -> tcp.addMember(a.toString()));
        config.getJetConfig().setEnabled(false);
        config.addMapConfig(new MapConfig(RESULTS_MAPS).setTimeToLiveSeconds(24 * 3600));
        CompactSerializers.all().forEach(s -> config.getSerializationConfig().getCompactSerializationConfig()
                .addSerializer(s));
        String name = "jpto-" + UUID.randomUUID().toString().substring(0, 8) + "@" + hostName();
        config.setInstanceName(name);
        if (slots == 0) {
            config.setLiteMember(true);
        } else {
            config.getExecutorConfig(EXECUTOR).setPoolSize(slots).setQueueCapacity(0);
            config.getMemberAttributeConfig().setAttribute(SLOTS, Integer.toString(slots));
            config.getUserContext().put(CaseTask.RUNNER, runner.apply(name));
        }
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        try {
            requireAdmitted(member, cluster);
        } catch (RuntimeException e) {
            member.getLifecycleService().terminate();
            throw e;
        }
        return member;
    }

    /**
     * Hazelcast does not tell a joining member that it was turned away: one with another cluster name (another
     * secret) quietly forms a cluster of its own. So a member that is alone but finds another member listening at
     * an address of its join list was refused, and says so. A lite member alone has no one to run its cases.
     */
    static void requireAdmitted(HazelcastInstance member, ClusterSpec cluster) {
        if (member.getCluster().getMembers().size() > 1 || cluster.join().isEmpty()) {
            return;
        }
        Member self = member.getCluster().getLocalMember();
        List<String> listening = new ArrayList<>();
        for (ClusterSpec.Address a : cluster.join()) {
            if (!isSelf(a, self) && listens(a)) {
                listening.add(a.toString());
            }
        }
        if (!listening.isEmpty()) {
            throw new IllegalArgumentException("the member(s) at " + String.join(", ", listening) + " did not "
                    + "admit this one: they belong to another cluster; give the same --secret-file and "
                    + "--cluster-name as they were started with");
        }
        if (self.isLiteMember()) {
            throw new IllegalArgumentException("no member answers at --join " + cluster.join().stream()
                    .map(ClusterSpec.Address::toString).toList() + "; start workers there with 'jpto worker'");
        }
    }

    private static boolean isSelf(ClusterSpec.Address a, Member self) {
        try {
            return a.port() == self.getAddress().getPort()
                    && InetAddress.getByName(a.host()).equals(self.getAddress().getInetAddress());
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean listens(ClusterSpec.Address a) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(a.host(), a.port()), PROBE_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** How many cases {@code m} runs at once: its {@value #SLOTS} attribute, 0 for a lite or foreign member. */
    static int slots(Member m) {
        String s = m.getAttribute(SLOTS);
        try {
            return s == null || m.isLiteMember() ? 0 : Math.max(0, Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
