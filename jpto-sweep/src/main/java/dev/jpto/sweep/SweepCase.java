package dev.jpto.sweep;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of a sweep: a program at a preset with runtime_cfg entries, a platform, a seed and benchmark rounds, and
 * what its outcome is expected to be ({@code PASS}, {@code FAIL} or an error code name such as
 * {@code HEAP_RING_DEADLOCK}).
 *
 * @param program the reference as a worker resolves it: a registered name or an absolute source path
 * @param name    the program's name, for reports
 */
public record SweepCase(String program, String name, String preset, Map<String, String> runtimeCfg,
                        String platform, long seed, int bench, String expect) {
    public SweepCase {
        runtimeCfg = java.util.Collections.unmodifiableMap(new TreeMap<>(runtimeCfg));
    }

    /**
     * The case's stable id: SHA-256 of its canonical definition (every field but the expectation, runtime_cfg
     * sorted by key), so that the same case in an edited file keeps its id and its finished result.
     */
    public String id() {
        StringBuilder canonical = new StringBuilder();
        canonical.append("program=").append(program).append('\n').append("preset=").append(preset).append('\n')
                .append("platform=").append(platform).append('\n').append("seed=").append(seed).append('\n')
                .append("bench=").append(bench).append('\n');
        runtimeCfg.forEach((k, v) -> canonical.append("runtime_cfg.").append(k).append('=').append(v).append('\n'));
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** {@code basic.matmul/tiny ring_heap=1024 a2a3sim seed=0}: the case for a person. */
    public String label() {
        return label(name, preset, runtimeCfg, platform, seed);
    }

    /** The label of a case from its parts (as a result or a results.jsonl line carries them). */
    static String label(String name, String preset, Map<String, String> runtimeCfg, String platform, long seed) {
        StringBuilder b = new StringBuilder(name).append('/').append(preset);
        runtimeCfg.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.append(' ').append(platform).append(" seed=").append(seed).toString();
    }
}
