package dev.jpto.runtime.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file so that its name only ever holds the previous content or the complete new one: the content goes
 * to a temporary file in the same directory, which is then renamed over the target in one step
 * ({@code ATOMIC_MOVE}). On any failure (a write error, a full disk, an exception of the caller's writer) the
 * temporary file is deleted and the previous file under the target name is left untouched.
 *
 * <p>This guards against failing writes and killed processes, not power loss: the data is not forced to disk
 * before the rename (an {@code fsync} per argument dump would cost more than the dump).
 */
public final class AtomicFile {
    private static final String TEMP_SUFFIX = ".tmp";
    /** Keeps {@code .<name>.<16 hex>.tmp} within the 255-byte name limit of common file systems. */
    private static final int MAX_NAME_IN_TEMP = 200;

    /** Fills the temporary file (it exists, empty); it may open it any way it likes and must close it. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path tmp) throws IOException;
    }

    private AtomicFile() {
    }

    /**
     * Writes {@code target} through {@code content}, replacing it atomically.
     *
     * @return {@code target}
     * @throws IOException what {@code content} or the file system threw (nothing under {@code target} changed)
     */
    public static Path write(Path target, Content content) throws IOException {
        Path name = target.getFileName();
        if (name == null) {
            throw new IOException("cannot write " + target + ": it names no file");
        }
        Path tmp = target.toAbsolutePath().resolveSibling(tempName(name.toString()));
        // createFile, not createTempFile: the result gets the umask's permissions, like any file written in place
        Files.createFile(tmp);
        try {
            content.writeTo(tmp);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (Throwable failure) { // errors too: an OutOfMemoryError mid-write must not leave the temp file
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                failure.addSuppressed(e); // the write's own failure is the one to report
            }
            throw failure;
        }
        return target;
    }

    /** Writes {@code text} as UTF-8, replacing {@code target} atomically. */
    public static Path writeString(Path target, CharSequence text) throws IOException {
        return write(target, tmp -> Files.writeString(tmp, text, StandardCharsets.UTF_8));
    }

    /** Whether {@code fileName} has the form of this class's temporary files (left behind only by a killed JVM). */
    public static boolean isTempName(String fileName) {
        if (!fileName.startsWith(".") || !fileName.endsWith(TEMP_SUFFIX)) {
            return false;
        }
        String stem = fileName.substring(0, fileName.length() - TEMP_SUFFIX.length());
        int dot = stem.lastIndexOf('.');
        return dot > 0 && stem.length() - dot - 1 == 16
                && stem.substring(dot + 1).chars().allMatch(HexFormat::isHexDigit);
    }

    static String tempName(String fileName) {
        String stem = fileName.length() > MAX_NAME_IN_TEMP ? fileName.substring(0, MAX_NAME_IN_TEMP) : fileName;
        return "." + stem + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + TEMP_SUFFIX;
    }
}
