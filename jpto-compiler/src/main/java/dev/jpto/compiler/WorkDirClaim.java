package dev.jpto.compiler;

import dev.jpto.compiler.workdir.L3Descriptor;
import dev.jpto.compiler.workdir.ManifestDescriptor;
import dev.jpto.runtime.io.AtomicFile;
import dev.jpto.runtime.io.DirLock;
import dev.jpto.runtime.io.OwnedFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A compile owns its work dir: before writing, it takes the directory, so that nothing of an earlier program is
 * left to be loaded with the new one (a stale {@code l3.json} beside a new chip program's manifest used to run the
 * old L3 program). The directory is
 * <ul>
 * <li>missing or empty: created;</li>
 * <li>a jpto work dir ({@code manifest.json} or {@code l3.json}), or holding only names a work dir consists of
 *     (a compile that stopped part-way): every file a compile writes is removed first;</li>
 * <li>anything else that is not empty: refused, unless {@code force}; then the same files are removed.</li>
 * </ul>
 * Only jpto's own file names are removed, never another file, so even {@code -o ~ --force} deletes nothing of the
 * user's; a directory goes only when that leaves it empty.
 */
public final class WorkDirClaim {
    /**
     * The file beside the manifest that holds a registered program's default runtime_cfg (written by jpto-lib's
     * {@code DefaultRuntimeCfg}); named here because a compile removes it with the rest of an old work dir.
     */
    public static final String DEFAULT_RUNTIME_CFG_FILE = "default_runtime_cfg.properties";
    /** The files at the top of a work dir, chip or L3. */
    private static final Set<String> TOP_FILES = Set.of(ManifestDescriptor.MANIFEST_FILE,
            ManifestDescriptor.ORCHESTRATION_FILE, L3Descriptor.L3_FILE, DEFAULT_RUNTIME_CFG_FILE);
    /** The directories at the top of a work dir, chip or L3. */
    private static final Set<String> TOP_DIRS = Set.of(ManifestDescriptor.KERNELS_DIR,
            ManifestDescriptor.IR_DUMP_DIR, L3Descriptor.CHIPS_DIR);

    private WorkDirClaim() {
    }

    /**
     * Whether a compile may take {@code dir}, without changing anything: a command calls this before it locks
     * the directory, so that a refused directory does not even get a lock file.
     *
     * @throws WorkDirException when it is not a directory, or not empty and not a work dir (without {@code force})
     */
    public static void check(Path dir, boolean force) {
        Path root = dir.toAbsolutePath().normalize();
        try {
            checked(root, force);
        } catch (IOException e) {
            throw new WorkDirException(root, "cannot read the directory: " + e.getMessage(), e);
        }
    }

    /**
     * Takes {@code dir} for a compile as the class comment says.
     *
     * @throws WorkDirException when it is not a directory, or not empty and not a work dir (without {@code force}),
     *         or cannot be cleaned; nothing in it was changed in the first two cases
     */
    static void claim(Path dir, boolean force) {
        Path root = dir.toAbsolutePath().normalize();
        try {
            removeCompiledFiles(checked(root, force));
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new WorkDirException(root, "cannot prepare the work dir: " + e.getMessage(), e);
        }
    }

    /** The real path of {@code root} once it passed {@link #check} ({@code root} itself when missing). */
    private static Path checked(Path root, boolean force) throws IOException {
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new WorkDirException(root, "is not a directory: a work dir is a directory (created if missing)");
        }
        Path real = Files.exists(root) ? root.toRealPath() : root; // a link the user named is followed, once
        List<String> foreign = foreignNames(real);
        boolean isWorkDir = Files.isRegularFile(real.resolve(ManifestDescriptor.MANIFEST_FILE))
                || Files.isRegularFile(real.resolve(L3Descriptor.L3_FILE));
        if (!foreign.isEmpty() && !isWorkDir && !force) {
            throw new WorkDirException(root, "is not empty and holds no jpto work dir (no "
                    + ManifestDescriptor.MANIFEST_FILE + " or " + L3Descriptor.L3_FILE + "; it holds "
                    + String.join(", ", foreign.subList(0, Math.min(3, foreign.size())))
                    + (foreign.size() > 3 ? ", …" : "") + "): refusing to compile into it. Choose a new or "
                    + "empty directory, or pass --force to write the work dir there (only jpto's own file names "
                    + "are replaced; other files stay)");
        }
        return real;
    }

    /**
     * Removes every file a compile writes in {@code root} (a chip or L3 work dir, also one written part-way),
     * descriptors first, so that a removal that stops part-way leaves a directory that does not load.
     */
    static void removeCompiledFiles(Path root) throws IOException {
        OwnedFiles.deleteFiles(root, n -> n.equals(ManifestDescriptor.MANIFEST_FILE)
                || n.equals(L3Descriptor.L3_FILE));
        OwnedFiles.deleteFiles(root, TOP_FILES::contains);
        OwnedFiles.deleteDir(root, ManifestDescriptor.KERNELS_DIR,
                d -> OwnedFiles.deleteFiles(d, n -> n.endsWith(ManifestDescriptor.KERNEL_SUFFIX)));
        OwnedFiles.deleteDir(root, ManifestDescriptor.IR_DUMP_DIR, d -> OwnedFiles.deleteFiles(d,
                n -> n.endsWith(".ir")));
        OwnedFiles.deleteDir(root, L3Descriptor.CHIPS_DIR, chips -> {
            for (String chip : OwnedFiles.subdirectories(chips, n -> true)) {
                OwnedFiles.deleteDir(chips, chip, WorkDirClaim::removeCompiledFiles);
            }
        });
    }

    /** The names in {@code root} that no work dir holds (sorted), ignoring the lock file; empty when missing. */
    private static List<String> foreignNames(Path root) throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !TOP_FILES.contains(n) && !TOP_DIRS.contains(n) && !n.equals(DirLock.FILE_NAME)
                            && !AtomicFile.isTempName(n))
                    .sorted().toList();
        }
    }
}
