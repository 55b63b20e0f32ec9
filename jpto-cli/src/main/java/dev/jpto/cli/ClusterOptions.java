package dev.jpto.cli;

import dev.jpto.sweep.ClusterSecret;
import dev.jpto.sweep.ClusterSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options naming a sweep cluster, shared by {@code jpto worker} and {@code jpto sweep --join}. */
final class ClusterOptions {
    @Option(names = "--join", paramLabel = "HOST:PORT", split = ",",
            description = "members of the cluster to join (a missing port is 5701)")
    List<String> join = new ArrayList<>();

    @Option(names = "--bind", paramLabel = "ADDR[:PORT]",
            description = "the address to listen on (default 127.0.0.1, port 5701 or the next free one); give "
                    + "one the other hosts can reach to work across hosts")
    String bind;

    @Option(names = "--cluster-name", paramLabel = "NAME", defaultValue = "jpto",
            description = "the cluster's name (default ${DEFAULT-VALUE}); several clusters may share hosts")
    String clusterName;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "the shared secret every member and submitter presents (owner-readable only; e.g. "
                    + "'umask 077; openssl rand -hex 32 > FILE')")
    Path secretFile;

    /** Whether any option of a cluster was given. */
    boolean given() {
        return !join.isEmpty() || bind != null || secretFile != null || !"jpto".equals(clusterName);
    }

    /** The cluster these options name; {@code --secret-file} is required. */
    ClusterSpec spec(String command) {
        if (secretFile == null) {
            throw new UsageException(command + " needs --secret-file FILE: the secret every member of the cluster "
                    + "shares (create one with 'umask 077; openssl rand -hex 32 > FILE')");
        }
        return ClusterSpec.of(ClusterSecret.read(secretFile), clusterName, bind, join);
    }
}
