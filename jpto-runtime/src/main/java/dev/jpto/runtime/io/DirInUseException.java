package dev.jpto.runtime.io;

import java.nio.file.Path;
import java.time.Duration;

/** Another command holds the {@link DirLock} of a directory, still after the wait: names the directory and it. */
public final class DirInUseException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Path dir;

    DirInUseException(Path dir, String holder, Duration waited) {
        super(dir + " is in use by another jpto command (" + holder + "), still after waiting "
                + waited.toMillis() / 1000.0 + "s: let it finish, or use another directory");
        this.dir = dir;
    }

    /** The directory that is locked. */
    public Path dir() {
        return dir;
    }
}
