package dev.jpto.lib.runner;

import dev.jpto.compiler.DataFileException;
import dev.jpto.compiler.DataFiles;
import dev.jpto.compiler.WorkDirClaim;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.compiler.run.RunConfigKeys;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A registered program's default runtime_cfg, kept beside the work dir it was compiled to, so that
 * {@code jpto exec} runs the work dir with the sizes {@code jpto run} uses (a program that needs larger rings
 * would otherwise fail under {@code exec} with the default sizes). The compiler's manifest describes the program;
 * this file holds what the registry adds. One {@code key=value} line per entry, sorted; absent means none.
 */
public final class DefaultRuntimeCfg {
    public static final String FILE = WorkDirClaim.DEFAULT_RUNTIME_CFG_FILE;

    private DefaultRuntimeCfg() {
    }

    /** Writes {@code cfg} beside the work dir's manifest, atomically (removes a stale file when it is empty). */
    public static void write(Path workDir, Map<String, String> cfg) {
        Path file = workDir.resolve(FILE);
        try {
            if (cfg.isEmpty()) {
                Files.deleteIfExists(file);
                return;
            }
            StringBuilder sb = new StringBuilder("# the program's default runtime_cfg; --runtime-cfg entries override it\n");
            new TreeMap<>(cfg).forEach((k, v) -> sb.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
            AtomicFile.writeString(file, sb);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The default runtime_cfg saved with the work dir, or an empty map when it has none. A work dir is data: the
     * file must be a regular file inside it ({@link DataFiles}), and it may only carry what describes the program's
     * needs ({@link RunConfigKeys#programNeedKeys()}: ring sizes, threads), never where or whether diagnostics are
     * written; its values are checked here, so an error names this file rather than {@code --runtime-cfg}.
     *
     * @throws JitConfigException naming the file, and the key and what is allowed
     */
    public static Map<String, String> read(Path workDir) {
        Path file = workDir.resolve(FILE);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Map.of();
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(DataFiles.readUtf8(workDir, file, DataFiles.MAX_TEXT_BYTES, "the program's "
                    + "default runtime_cfg, key=value lines")));
        } catch (DataFileException e) {
            throw new JitConfigException(e.getMessage() + "; delete it, or recompile the work dir with 'jpto compile'",
                    e);
        } catch (IOException | IllegalArgumentException e) {
            throw new JitConfigException(file + " is not a list of key=value lines (" + e.getMessage()
                    + "); delete it, or recompile the work dir with 'jpto compile'", e);
        }
        Map<String, String> cfg = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> cfg.put(k, p.getProperty(k)));
        List<String> allowed = RunConfigKeys.programNeedKeys();
        for (String key : cfg.keySet()) {
            if (!allowed.contains(key)) {
                throw new JitConfigException(file + ": key '" + key + "' is not allowed in a work dir's default "
                        + "runtime_cfg, which may only carry what the program needs (" + String.join(", ", allowed)
                        + "); give other settings with --runtime-cfg", null);
            }
        }
        try {
            RunConfig.fromMap(cfg);
        } catch (IllegalArgumentException e) {
            throw new JitConfigException(file + ": " + e.getMessage(), e);
        }
        return cfg;
    }
}
