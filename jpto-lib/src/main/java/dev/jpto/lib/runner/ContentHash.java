package dev.jpto.lib.runner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The SHA-256 of a file's bytes, as {@code sha256sum} prints it: how saved tensors are recognised. */
final class ContentHash {
    private static final int CHUNK = 1 << 20;

    private ContentHash() {
    }

    /** Lower-case hex SHA-256 of {@code file}, read in chunks (a tensor file may be gigabytes). */
    static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.flip();
                digest.update(buf);
                buf.clear();
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
