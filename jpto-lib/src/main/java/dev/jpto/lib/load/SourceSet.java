package dev.jpto.lib.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Java sources of a user's programs: one file, or every {@code .java} file under a directory, plus an optional
 * source path javac searches for the classes they import. Its {@link #hash} covers every file javac may read, so
 * compiled classes are reused only for the very same sources.
 *
 * @param files      the files compiled (each is searched for providers), sorted
 * @param sourcePath a directory javac searches for further sources, or null
 * @param label      how messages name these sources (the path the user gave)
 */
record SourceSet(List<Path> files, Path sourcePath, String label) {
    /** The largest source file read: a program's source is text, not data. */
    static final long MAX_FILE_BYTES = 8L << 20;

    /** The sources at {@code path}: a {@code .java} file or a directory of them. */
    static SourceSet of(Path path, Path sourcePath) {
        Path p = path.toAbsolutePath().normalize();
        String label = path.toString();
        if (Files.isDirectory(p)) {
            List<Path> files = javaFiles(p);
            if (files.isEmpty()) {
                throw new ProgramLoadException(label + ": no .java files in this directory");
            }
            return new SourceSet(files, sourcePath == null ? p : sourcePath.toAbsolutePath().normalize(), label);
        }
        if (!p.getFileName().toString().endsWith(".java")) {
            throw new ProgramLoadException(label + ": expected a .java file or a directory of them");
        }
        if (!Files.isRegularFile(p)) {
            throw new ProgramLoadException(label + (Files.exists(p) ? ": is not a regular file" : ": no such file"));
        }
        return new SourceSet(List.of(p), sourcePath == null ? null : sourcePath.toAbsolutePath().normalize(), label);
    }

    private static List<Path> javaFiles(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(f -> f.getFileName().toString().endsWith(".java") && Files.isRegularFile(f)).sorted()
                    .toList();
        } catch (IOException e) {
            throw new ProgramLoadException(dir + ": cannot list the sources: " + e.getMessage(), e);
        }
    }

    /** Every file javac may read: the files, and every .java file under the source path. */
    List<Path> allFiles() {
        if (sourcePath == null) {
            return files;
        }
        return Stream.concat(files.stream(), javaFiles(sourcePath).stream()).distinct().sorted().toList();
    }

    /** SHA-256 over every file's path and content and over {@code context} (what the classes were compiled with). */
    String hash(String context) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
        md.update(context.getBytes(StandardCharsets.UTF_8));
        for (Path f : allFiles()) {
            md.update((f + "\0").getBytes(StandardCharsets.UTF_8));
            md.update(read(f));
            md.update((byte) 0);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static byte[] read(Path f) {
        try {
            if (Files.size(f) > MAX_FILE_BYTES) {
                throw new ProgramLoadException(f + ": " + Files.size(f) + " bytes, more than the "
                        + (MAX_FILE_BYTES >> 20) + " MiB a source file may have");
            }
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
        }
    }
}
