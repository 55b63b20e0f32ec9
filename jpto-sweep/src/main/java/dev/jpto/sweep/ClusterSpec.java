package dev.jpto.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Which cluster a sweep member belongs to and where it listens.
 *
 * @param clusterName the Hazelcast cluster name every member presents (derived from the secret, see
 *                    {@link ClusterSecret#clusterName})
 * @param bind        the address the member listens on; 127.0.0.1 unless the user chose another
 * @param join        members to contact when starting (none: this member starts the cluster)
 */
public record ClusterSpec(String clusterName, Address bind, List<Address> join) {
    /** Hazelcast's first port; a member given no port takes the first free one from here on. */
    public static final int DEFAULT_PORT = 5701;

    /** {@code HOST[:PORT]}; port 0 means the first free port from {@value #DEFAULT_PORT}. */
    public record Address(String host, int port) {
        @Override
        public String toString() {
            return host + ":" + (port == 0 ? DEFAULT_PORT : port);
        }
    }

    public ClusterSpec {
        join = List.copyOf(join);
    }

    /** A member of a cluster of its own on loopback: the default of {@code jpto sweep}, joining and admitting none. */
    static ClusterSpec embedded() {
        return new ClusterSpec("jpto-sweep-" + UUID.randomUUID(), new Address("127.0.0.1", 0), List.of());
    }

    /** Whether this is {@link #embedded()}: no other member is ever contacted. */
    boolean isEmbedded() {
        return join.isEmpty() && clusterName.startsWith("jpto-sweep-");
    }

    /**
     * The cluster of {@code --cluster-name NAME --secret-file F --bind ADDR[:PORT] --join HOST:PORT[,…]}.
     *
     * @param bind {@code ADDR[:PORT]}, null for 127.0.0.1
     * @param join {@code HOST[:PORT]} entries (a missing port is {@value #DEFAULT_PORT}), each may hold several
     *             comma-separated
     */
    public static ClusterSpec of(ClusterSecret secret, String name, String bind, List<String> join) {
        List<Address> members = new ArrayList<>();
        for (String list : join) {
            for (String one : list.split(",")) {
                if (!one.isBlank()) {
                    Address a = parse("--join", one.strip());
                    members.add(a.port() == 0 ? new Address(a.host(), DEFAULT_PORT) : a);
                }
            }
        }
        return new ClusterSpec(secret.clusterName(name), bind == null ? new Address("127.0.0.1", 0)
                : parse("--bind", bind), members);
    }

    /** {@code HOST[:PORT]}, with a message naming {@code option} and the form allowed. */
    static Address parse(String option, String text) {
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? text : text.substring(0, colon);
        int port = 0;
        if (colon >= 0) {
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(option + " '" + text + "': the port must be a number from 1 to "
                        + "65535; use HOST[:PORT], e.g. 10.0.0.5:5701");
            }
        }
        if (host.isEmpty() || host.contains(":") || host.contains("/") || host.isBlank()) {
            throw new IllegalArgumentException(option + " '" + text + "': not HOST[:PORT]; use e.g. 10.0.0.5:5701 or "
                    + "worker1.lan:5701 (IPv4 or a host name)");
        }
        return new Address(host, port);
    }
}
