package dev.jpto.lib.runner;

import dev.jpto.compiler.launch.DistributedRunner;
import dev.jpto.runtime.chip.DfxOutputs;
import dev.jpto.runtime.io.AtomicFile;
import dev.jpto.runtime.io.DirLock;
import dev.jpto.runtime.io.OwnedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the golden runner keeps in its output dir ({@code jpto run --output-dir DIR}): the work dir, the saved
 * tensors, and the DFX outputs when {@code output_prefix} is DIR. A run reusing DIR first removes what an earlier
 * run left there, so that its files never sit beside another program's or another run's (an old {@code deps.json},
 * {@code args/} of other tasks). Only these names are removed, other files stay; and a non-empty DIR that holds no
 * earlier run is refused, so that a mistyped {@code --output-dir ~} cannot remove a user's {@code outputs/*.npy}.
 */
public final class RunOutputDir {
    static final String WORK_DIR = "work_dir";
    static final String INPUTS = "inputs";
    static final String OUTPUTS = "outputs";
    static final String GOLDEN = "golden";
    private static final Set<String> TENSOR_DIRS = Set.of(INPUTS, OUTPUTS, GOLDEN);
    /** {@code jpto run --report}'s summary of the run (its --json document) and the page made from it. */
    public static final String RUN_JSON = "run.json";
    public static final String REPORT = "report.html";
    private static final Set<String> REPORT_FILES = Set.of(RUN_JSON, REPORT);

    private RunOutputDir() {
    }

    /**
     * Whether a run may write into {@code dir}, without changing anything: it is missing, empty, holds an earlier
     * run ({@code work_dir/}) or only names a run writes (one that stopped early). A command calls this before it
     * locks the directory, so that a refused directory does not even get a lock file.
     *
     * @throws JitConfigException naming the directory and some of what it holds otherwise
     */
    public static void check(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw new JitConfigException("the output dir " + dir + " is not a directory (a directory is created if "
                    + "missing)", null);
        }
        List<String> foreign;
        try (Stream<Path> s = Files.list(dir)) {
            foreign = s.map(p -> p.getFileName().toString()).filter(n -> !isRunName(n)).sorted().toList();
        } catch (IOException e) {
            throw new JitConfigException("cannot read the output dir " + dir + ": " + e.getMessage(), e);
        }
        if (!foreign.isEmpty() && !Files.isDirectory(dir.resolve(WORK_DIR))) {
            throw new JitConfigException("the output dir " + dir + " is not empty and holds no earlier jpto run (no "
                    + WORK_DIR + "/; it holds " + String.join(", ", foreign.subList(0, Math.min(3, foreign.size())))
                    + (foreign.size() > 3 ? ", …" : "") + "): a run replaces the files it writes there, so give a "
                    + "new or empty directory", null);
        }
    }

    /**
     * Checks {@code dir} ({@link #check}), then removes the tensors and DFX outputs of an earlier run from it; the
     * work dir is left to the compile, which owns it.
     */
    static void removeEarlierRun(Path dir) {
        check(dir);
        try {
            for (String tensors : TENSOR_DIRS) {
                OwnedFiles.deleteDir(dir, tensors, d -> OwnedFiles.deleteFiles(d, n -> n.endsWith(".npy")));
            }
            // a regular file or a link (the link itself); never a directory a user put there under that name
            for (String file : java.util.List.of(TensorMeta.FILE, RUN_JSON, REPORT)) { // regular files or links
                if (!Files.isDirectory(dir.resolve(file), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(dir.resolve(file));
                }
            }
            DfxOutputs.remove(dir);
            DistributedRunner.removeDfxOutputs(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove an earlier run's files from the output dir " + dir + ": "
                    + e.getMessage(), e);
        }
    }

    /** A name a run writes directly in its output dir. */
    private static boolean isRunName(String name) {
        return name.equals(WORK_DIR) || TENSOR_DIRS.contains(name) || name.equals(TensorMeta.FILE)
                || REPORT_FILES.contains(name)
                || DfxOutputs.isOutputName(name)
                || DistributedRunner.isDfxOutputName(name) || name.equals(DirLock.FILE_NAME)
                || AtomicFile.isTempName(name);
    }
}
