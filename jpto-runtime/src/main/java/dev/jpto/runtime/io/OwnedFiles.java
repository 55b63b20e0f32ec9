package dev.jpto.runtime.io;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Removes what jpto itself wrote from a directory it reuses, and nothing else: files go by name (never a
 * directory's whole content), a directory goes only when that leaves it empty, and a symbolic link is removed as a
 * link, never followed. Every method does nothing when its directory does not exist.
 */
public final class OwnedFiles {
    /** Cleans one directory (it exists and is a real directory). */
    @FunctionalInterface
    public interface Cleaner {
        void clean(Path dir) throws IOException;
    }

    private OwnedFiles() {
    }

    /**
     * Deletes the files and links directly in {@code dir} whose name is {@code owned}, and the temporary files an
     * interrupted {@link AtomicFile} write left there; never a directory.
     */
    public static void deleteFiles(Path dir, Predicate<String> owned) throws IOException {
        for (Path p : entries(dir)) {
            String name = p.getFileName().toString();
            if ((owned.test(name) || AtomicFile.isTempName(name)) && !isRealDirectory(p)) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Cleans the subdirectory {@code name} of {@code dir} with {@code cleaner}, then deletes it if that left it
     * empty. A link of that name is deleted as a link (jpto never writes through one); a file of that name is not
     * jpto's and stays.
     */
    public static void deleteDir(Path dir, String name, Cleaner cleaner) throws IOException {
        Path sub = dir.resolve(name);
        if (Files.isSymbolicLink(sub)) {
            Files.delete(sub);
        } else if (isRealDirectory(sub)) {
            cleaner.clean(sub);
            deleteIfEmpty(sub);
        }
    }

    /** The names of the real subdirectories of {@code dir} that {@code match}, sorted. */
    public static List<String> subdirectories(Path dir, Predicate<String> match) throws IOException {
        return entries(dir).stream().filter(OwnedFiles::isRealDirectory).map(p -> p.getFileName().toString())
                .filter(match).sorted().toList();
    }

    /** Deletes {@code dir} if it is an empty real directory. */
    public static void deleteIfEmpty(Path dir) throws IOException {
        if (!isRealDirectory(dir)) {
            return;
        }
        try {
            Files.deleteIfExists(dir);
        } catch (DirectoryNotEmptyException e) {
            // something jpto did not write is in it: it stays
        }
    }

    /**
     * Deletes {@code root} and everything under it: for a directory jpto created for itself (a temporary work dir,
     * a cache entry being written), never for one a user named. Links inside are removed, not followed.
     */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static boolean isRealDirectory(Path p) {
        return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
    }

    private static List<Path> entries(Path dir) throws IOException {
        if (!isRealDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
