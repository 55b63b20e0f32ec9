package dev.jpto.lib.runner;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * An {@link IOException} as one line for a person: the path and the operating system's reason. The JDK's own
 * messages leave the reason out for the common cases ({@code AccessDeniedException: /out/z.npy}).
 */
public final class IoErrors {
    private IoErrors() {
    }

    /** The reason alone: "permission denied", "Read-only file system", "No space left on device". */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException f) {
            if (f.getReason() != null) {
                return f.getReason();
            }
            return switch (f) {
                case AccessDeniedException a -> "permission denied";
                case NoSuchFileException n -> "no such file or directory";
                case FileAlreadyExistsException x -> "file exists";
                case NotDirectoryException n -> "not a directory";
                case DirectoryNotEmptyException d -> "directory not empty";
                default -> f.getClass().getSimpleName();
            };
        }
        return e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** "PATH: reason" ("PATH -> OTHER: reason" for a move), or the reason alone when the exception has no path. */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return f.getFile() + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": " + reason(e);
        }
        return reason(e);
    }
}
