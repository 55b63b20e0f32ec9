package dev.jpto.runtime.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on a directory a command writes into ({@code jpto run --output-dir}, {@code jpto compile -o}),
 * held for the command's duration, so that two commands never write one directory at once. It is an OS file lock
 * on {@value #FILE_NAME} in the directory, which also holds the holder's pid and command line for the message
 * another command gets; the OS releases it when the process dies, so a crash leaves no stale lock.
 *
 * <p>The file stays after {@link #close()} (emptied): deleting it would let a waiting process lock the deleted
 * file while a third locks a new one. Java file locks belong to the JVM, and a second lock on the same file from
 * the same JVM throws {@link OverlappingFileLockException}; locks this JVM holds are therefore tracked here and
 * count as held, like another process's, so that in-process callers wait and refuse the same way.
 */
public final class DirLock implements AutoCloseable {
    /** The lock file's name inside the locked directory. */
    public static final String FILE_NAME = ".jpto.lock";
    private static final Duration POLL = Duration.ofMillis(50);
    /** At most this much of a lock file is read for the holder's description. */
    private static final int MAX_HOLDER_BYTES = 4096;
    /** Lock files this JVM holds a lock on (real paths). */
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private DirLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code dir} (created if missing), waiting up to {@code wait} for another holder to finish.
     *
     * @param command what the lock file says holds it, e.g. the command line
     * @throws DirInUseException when another command still holds it after {@code wait}, naming it
     * @throws CancellationException when the thread is interrupted while waiting
     * @throws IOException when the directory or the lock file cannot be created or opened
     */
    public static DirLock acquire(Path dir, String command, Duration wait) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.toRealPath().resolve(FILE_NAME);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(file + " is not a regular file: it is jpto's lock file for " + dir + "; remove it");
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            DirLock taken = tryLock(file, command);
            if (taken != null) {
                return taken;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new DirInUseException(dir, holder(file), wait);
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                String message = "interrupted while waiting for " + dir + ", which another jpto command is using ("
                        + holder(file) + ")"; // read before the flag is set again: it would close the channel
                Thread.currentThread().interrupt();
                throw new CancellationException(message);
            }
        }
    }

    /** The lock, or null when another process or this JVM holds it. */
    private static DirLock tryLock(Path file, String command) throws IOException {
        if (!HELD_HERE.add(file)) {
            return null;
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            FileLock lock = ch.tryLock();
            if (lock != null) {
                ch.truncate(0);
                ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + " " + oneLine(command) + "\n")
                        .getBytes(StandardCharsets.UTF_8)));
                return new DirLock(file, ch, lock);
            }
        } catch (OverlappingFileLockException e) {
            // a lock this JVM took outside this class: held, as far as this caller is concerned
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch, e);
            HELD_HERE.remove(file);
            throw e;
        }
        closeQuietly(ch, null);
        HELD_HERE.remove(file);
        return null;
    }

    /** {@code pid 1234: jpto run …} from the lock file, or what is known when it is empty or unreadable. */
    static String holder(Path file) {
        String text;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer b = ByteBuffer.allocate(MAX_HOLDER_BYTES);
            while (b.hasRemaining() && ch.read(b) > 0) {
                // read up to the bound: a lock file is one short line
            }
            text = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "its pid is unknown: " + file + " cannot be read (" + e.getMessage() + ")";
        }
        int space = text.indexOf(' ');
        if (text.isEmpty() || space <= 0) {
            return "its pid is unknown: " + file + " is still being written";
        }
        String pid = text.substring(0, space);
        boolean here = pid.equals(Long.toString(ProcessHandle.current().pid()));
        return "pid " + pid + (here ? " (this process)" : "") + ": " + oneLine(text.substring(space + 1));
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\p{Cntrl}", " ");
    }

    private static void closeQuietly(FileChannel ch, Exception failure) {
        if (ch == null) {
            return;
        }
        try {
            ch.close();
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Empties the lock file (its holder is gone) and releases the lock. */
    @Override
    public void close() throws IOException {
        try (channel) {
            if (lock.isValid()) {
                channel.truncate(0);
                lock.release();
            }
        } finally {
            HELD_HERE.remove(key);
        }
    }
}
