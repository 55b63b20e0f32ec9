package dev.jpto.lib.runner;

import dev.jpto.runtime.Sizes;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A directory a command will write to, checked before its first stage: a read-only directory, a path through a
 * regular file or a full disk is refused up front (exit 2) rather than after a run whose results then cannot be
 * saved. Each check names the location ({@code --outputs}, {@code runtime_cfg output_prefix}, …).
 */
public final class OutputDir {
    private OutputDir() {
    }

    /**
     * Refuses {@code dir} unless it is a directory this process can create files in, or does not exist yet and
     * its nearest existing ancestor is such a directory. Writability is tried, not inferred from permission bits
     * (root ignores them, a read-only mount does not show in them): a probe file is created and deleted.
     *
     * @param what the location's name in the message, e.g. {@code --outputs}
     * @throws JitConfigException naming the location, the path and the reason
     */
    public static void requireWritable(String what, Path dir) {
        Path abs = dir.toAbsolutePath();
        Path existing = nearestExisting(abs);
        if (!Files.isDirectory(existing)) {
            throw new JitConfigException(what + " " + dir + (existing.equals(abs) ? " is not a directory"
                    : " cannot be created: " + existing + " is not a directory") + "; give a directory (created if "
                    + "missing)", null);
        }
        try {
            Files.delete(Files.createTempFile(existing, ".jpto-write-check-", ".tmp"));
        } catch (IOException e) {
            throw new JitConfigException(what + " " + dir + " is not writable: cannot create a file in " + existing
                    + " (" + IoErrors.reason(e) + ")", e);
        }
    }

    /**
     * Refuses to write {@code bytes} under {@code dir} when its file system has less usable space.
     *
     * @throws JitConfigException naming the location, the bytes needed and the bytes free
     */
    public static void requireSpace(String what, Path dir, long bytes) {
        if (bytes <= 0) {
            return;
        }
        Path existing = nearestExisting(dir.toAbsolutePath());
        long free;
        try {
            FileStore store = Files.getFileStore(existing);
            free = store.getUsableSpace();
        } catch (IOException e) {
            throw new JitConfigException("cannot tell the free space for " + what + " " + dir + ": "
                    + IoErrors.describe(e), e);
        }
        if (free < bytes) {
            throw new JitConfigException("not enough disk space for " + what + " " + dir + ": the command writes "
                    + Sizes.readable(bytes) + " (" + bytes + " bytes) there, and " + existing + "'s file system has "
                    + Sizes.readable(free) + " free; free some space or give another directory", null);
        }
    }

    /** {@code abs} or its nearest ancestor that exists (as anything: a dangling link too); the root always does. */
    private static Path nearestExisting(Path abs) {
        Path p = abs;
        while (p.getParent() != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            p = p.getParent();
        }
        return p;
    }
}
