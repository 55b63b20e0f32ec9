package dev.jpto.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The shared secret of a sweep cluster, read from a file every worker and submitter is given. Hazelcast Community
 * Edition admits a member whose cluster name matches and checks nothing else, so the cluster name is derived from
 * the secret (HMAC-SHA256 of the chosen name): a process without the secret cannot name the cluster, and the
 * secret itself never travels. The derived name does travel in plain text; see docs/sweeps.md.
 */
public final class ClusterSecret {
    /** Fewer bytes than this are guessable; {@code openssl rand -hex 32} gives 64. */
    static final int MIN_BYTES = 16;
    private static final Set<PosixFilePermission> OTHERS_MAY_READ = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);

    private final byte[] secret;

    private ClusterSecret(byte[] secret) {
        this.secret = secret;
    }

    /**
     * The secret in {@code file} (its text, surrounding white space ignored).
     *
     * @throws IllegalArgumentException for a missing, short, or group- or world-readable file
     */
    public static ClusterSecret read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--secret-file " + file + ": no such file; create one with e.g. "
                    + "'umask 077; openssl rand -hex 32 > " + file + "' and give every worker and submitter a copy");
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        try {
            if (posix != null && posix.readAttributes().permissions().stream().anyMatch(OTHERS_MAY_READ::contains)) {
                throw new IllegalArgumentException("--secret-file " + file + ": readable by other users; allow only "
                        + "its owner (chmod 600 " + file + ")");
            }
            byte[] text = Files.readString(file, StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
            if (text.length < MIN_BYTES) {
                throw new IllegalArgumentException("--secret-file " + file + ": " + text.length + " byte(s); a secret "
                        + "needs at least " + MIN_BYTES + " (e.g. 'openssl rand -hex 32')");
            }
            return new ClusterSecret(text);
        } catch (IOException e) {
            throw new UncheckedIOException("--secret-file " + file + ": cannot read it", e);
        }
    }

    /** A secret given directly (tests; an in-process cluster). */
    static ClusterSecret of(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("a cluster secret needs at least " + MIN_BYTES + " bytes");
        }
        return new ClusterSecret(bytes);
    }

    /**
     * The Hazelcast cluster name for {@code name}: {@code jpto-NAME-} and 32 hex digits of HMAC-SHA256(secret, NAME),
     * so members with the same name but another secret form separate clusters.
     */
    public String clusterName(String name) {
        if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("--cluster-name '" + name + "': use 1 to 64 letters, digits, '.', '_' "
                    + "or '-'");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            byte[] tag = mac.doFinal(("jpto-sweep-cluster:" + name).getBytes(StandardCharsets.UTF_8));
            return "jpto-" + name + "-" + HexFormat.of().formatHex(tag, 0, 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }
}
