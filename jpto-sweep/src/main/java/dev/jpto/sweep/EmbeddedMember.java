package dev.jpto.sweep;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.UUID;

/**
 * The one Hazelcast member {@code jpto sweep} starts in its own process: bound to loopback, discovering nobody (no
 * multicast, no TCP/IP members, no cloud auto-detection) and under a cluster name of its own, so it neither joins
 * nor admits another process's member. Phone-home and Hazelcast's own logging are off.
 */
final class EmbeddedMember {
    static final String CLUSTER_PREFIX = "jpto-sweep-";
    static final String EXECUTOR = "jpto-cases";

    /**
     * Hazelcast's own JUL logger, held so its level sticks: it warns about JDK-internal access before the config's
     * logging type applies, which a user of {@code jpto sweep} can do nothing about. Errors still show.
     */
    private static final java.util.logging.Logger HAZELCAST_LOG = java.util.logging.Logger.getLogger("com.hazelcast");

    static {
        HAZELCAST_LOG.setLevel(java.util.logging.Level.SEVERE);
    }

    private EmbeddedMember() {
    }

    /** Starts a member whose executor runs {@code maxParallel} cases at a time with {@code runner}. */
    static HazelcastInstance start(int maxParallel, java.util.function.Function<String, CaseRunner> runner) {
        Config config = new Config();
        // a name per sweep: two sweeps on one host never form one cluster
        config.setClusterName(CLUSTER_PREFIX + UUID.randomUUID());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "none");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        NetworkConfig network = config.getNetworkConfig();
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        network.setPortAutoIncrement(true);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        config.getJetConfig().setEnabled(false);
        CompactSerializers.all().forEach(s -> config.getSerializationConfig().getCompactSerializationConfig()
                .addSerializer(s));
        config.getExecutorConfig(EXECUTOR).setPoolSize(maxParallel).setQueueCapacity(0);
        String name = "jpto-" + UUID.randomUUID().toString().substring(0, 8);
        config.setInstanceName(name);
        config.getUserContext().put(CaseTask.RUNNER, runner.apply(name));
        return Hazelcast.newHazelcastInstance(config);
    }
}
