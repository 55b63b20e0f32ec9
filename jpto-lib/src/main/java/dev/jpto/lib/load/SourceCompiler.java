package dev.jpto.lib.load;

import dev.jpto.runtime.io.OwnedFiles;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a {@link SourceSet} with the JDK's compiler (javax.tools, in-process) against jpto's published modules
 * ({@link ApiModulePath}: on a module path, so only exported packages are visible), into a
 * cache directory named by the sources' hash: an unchanged source is never recompiled, an edited one always is
 * (its hash differs), and a directory is used only once its compile completed (written under a temporary name,
 * then renamed), so a stale or half-written class can never run.
 */
final class SourceCompiler {
    /** Marks a finished compile inside a cache entry. */
    static final String COMPLETE = ".complete";
    /** Cache entries kept: each edit of a source makes a new one; the least recently used beyond this go. */
    static final int KEEP_ENTRIES = 64;

    private SourceCompiler() {
    }

    /** What a load did: the directory of classes, and whether it was compiled now or found in the cache. */
    record Compiled(Path classes, boolean fromCache, long nanos) {
    }

    static Compiled compile(SourceSet sources, Path cacheRoot) {
        long start = System.nanoTime();
        String modulePath = ApiModulePath.of().stream().map(Path::toString)
                .collect(java.util.stream.Collectors.joining(File.pathSeparator));
        Path entry = cacheRoot.resolve(sources.hash(Runtime.version() + "\0" + stamp(modulePath)));
        if (Files.isRegularFile(entry.resolve(COMPLETE))) {
            touch(entry);
            return new Compiled(entry, true, System.nanoTime() - start);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new ProgramLoadException(sources.label() + ": this Java runtime has no compiler (javax.tools): run "
                    + "jpto on a JDK, not a JRE");
        }
        Path tmp;
        try {
            Files.createDirectories(cacheRoot);
            tmp = Files.createTempDirectory(cacheRoot, "compiling-");
        } catch (IOException e) {
            throw new ProgramLoadException("cannot create the class cache under " + cacheRoot + ": " + e.getMessage()
                    + " (set JPTO_CACHE_DIR to a writable directory)", e);
        }
        try {
            run(javac, sources, modulePath, tmp);
            Files.writeString(tmp.resolve(COMPLETE), sources.label() + "\n");
            publish(tmp, entry);
            prune(cacheRoot, entry, KEEP_ENTRIES);
        } catch (IOException e) {
            throw new ProgramLoadException("cannot write the class cache " + entry + ": " + e.getMessage(), e);
        } finally {
            deleteTree(tmp);
        }
        return new Compiled(entry, false, System.nanoTime() - start);
    }

    private static void run(JavaCompiler javac, SourceSet sources, String modulePath, Path out) throws IOException {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            // an explicit class path: javac's default is this JVM's, where jpto's own classes sit unguarded
            List<String> options = new ArrayList<>(List.of("-d", out.toString(), "--class-path", out.toString(),
                    "--module-path", modulePath, "--add-modules", ApiModulePath.API_MODULE, "-encoding", "UTF-8",
                    "-proc:none", "-parameters", "-nowarn", "-implicit:class"));
            if (sources.sourcePath() != null) {
                options.addAll(List.of("-sourcepath", sources.sourcePath().toString()));
            }
            StringWriter javacOut = new StringWriter();
            Boolean ok = javac.getTask(javacOut, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(sources.files())).call();
            if (!Boolean.TRUE.equals(ok)) {
                throw new ProgramLoadException(errors(sources, diagnostics, javacOut.toString()));
            }
        }
    }

    private static String errors(SourceSet sources, DiagnosticCollector<JavaFileObject> diagnostics, String other) {
        StringBuilder sb = new StringBuilder(sources.label() + " does not compile:");
        int n = 0;
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            n++;
            String where = d.getSource() == null ? "" : Path.of(d.getSource().toUri()) + ":" + d.getLineNumber() + ":"
                    + d.getColumnNumber() + ": ";
            sb.append("\n").append(where).append("error: ").append(d.getMessage(Locale.ROOT));
        }
        if (n == 0 && !other.isBlank()) {
            sb.append("\n").append(other.strip());
        }
        return sb.toString();
    }

    /** Moves a finished compile into place; another process that got there first wins (same sources, same bytes). */
    private static void publish(Path tmp, Path entry) throws IOException {
        try {
            Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
            if (!Files.isRegularFile(entry.resolve(COMPLETE))) {
                deleteTree(entry); // a leftover without its marker: never used, replaced
                Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE);
            }
        }
    }

    /** Size and modification time of every module-path entry: a rebuilt jpto recompiles the user's sources. */
    private static String stamp(String modulePath) {
        StringBuilder sb = new StringBuilder(modulePath);
        for (String e : modulePath.split(File.pathSeparator)) {
            Path p = Path.of(e);
            try {
                if (Files.isRegularFile(p)) {
                    sb.append('\0').append(Files.size(p)).append(':').append(Files.getLastModifiedTime(p).toMillis());
                }
            } catch (IOException ex) {
                sb.append("\0?");
            }
        }
        return sb.toString();
    }

    /** Marks an entry as used now, for {@link #prune}. */
    private static void touch(Path entry) {
        try {
            Files.setLastModifiedTime(entry, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // an entry that cannot be touched may be pruned early: it is then compiled again, nothing worse
        }
    }

    /** Removes finished entries beyond the {@code max} most recently used ({@code keep} always stays). */
    static void prune(Path cacheRoot, Path keep, int max) throws IOException {
        List<Path> finished;
        try (Stream<Path> s = Files.list(cacheRoot)) {
            finished = s.filter(p -> Files.isRegularFile(p.resolve(COMPLETE)) && !p.equals(keep))
                    .sorted(Comparator.comparing(SourceCompiler::lastUsed).reversed()).toList();
        }
        for (Path old : finished.subList(Math.min(finished.size(), max - 1), finished.size())) {
            deleteTree(old);
        }
    }

    private static long lastUsed(Path entry) {
        try {
            return Files.getLastModifiedTime(entry).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static void deleteTree(Path root) {
        try {
            OwnedFiles.deleteTree(root);
        } catch (IOException e) {
            // a leftover temporary directory costs disk space only; it is never mistaken for a finished compile
        }
    }
}
