package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.jpto.cli.HostileWorkDirs.Case;
import dev.jpto.cli.HostileWorkDirs.Program;
import dev.jpto.cli.HostileWorkDirs.Result;
import dev.jpto.lib.runner.DefaultRuntimeCfg;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Issue 20's property: a valid work dir of a small registered program (basic.vector_add tiny, a chip program;
 * l3.tiled_matmul tiny, an L3 program), mutated in one place (a tensor name, a shape extent, the kind of a file
 * it names, an integer out of range), run by {@code jpto exec} in-process: the exit code is 0 or 2 (never a
 * validation FAIL or an internal error), stderr has no stack trace, nothing beside the given directories is
 * created or changed, and the run ends within a bound.
 */
class WorkDirMutationProperties {
    /** Generous for a loaded 2-core machine; a FIFO that blocked would never end. */
    private static final Duration BOUND = Duration.ofSeconds(90);

    /** One mutation of a fresh case, described for jqwik's report. */
    record Mutation(String category, String description, boolean l3, Edit edit) {
        @Override
        public String toString() {
            return (l3 ? "l3.tiled_matmul: " : "basic.vector_add: ") + description;
        }
    }

    @FunctionalInterface
    interface Edit {
        void apply(Case c) throws IOException;
    }

    @Property(tries = 40, seed = "20")
    void aMutatedWorkDirRunsOrIsRefusedCleanlyWithinABound(@ForAll("mutations") Mutation m) throws IOException {
        // the case one level down, so that a name climbing out of it ("../../x") lands where the snapshot looks
        Path base = Files.createTempDirectory("jpto-mutation");
        try {
            Program p = m.l3() ? HostileWorkDirs.l3() : HostileWorkDirs.chip();
            Case c = HostileWorkDirs.newCase(p, base.resolve("case"));
            Statistics.collect(m.category());
            m.edit().apply(c);
            Map<String, String> before = withoutOutputs(HostileWorkDirs.snapshot(base));

            Result r = assertTimeoutPreemptively(BOUND, () -> HostileWorkDirs.run(c.exec()), m::toString);

            assertThat(r.exit()).as(m + "\n" + r.err()).isIn(0, 2);
            assertThat(r.err()).as(m.toString()).doesNotContain("\tat ", "Exception in", "internal error");
            assertThat(withoutOutputs(HostileWorkDirs.snapshot(base))).as(m + ": nothing changed beside --outputs")
                    .isEqualTo(before);
            if (Files.exists(c.out())) {
                assertThat(HostileWorkDirs.names(c.out())).as(m + ": --outputs holds <output>.npy files only")
                        .allMatch(n -> n.matches("[A-Za-z_][A-Za-z0-9_]*\\.npy"));
            }
        } finally {
            HostileWorkDirs.deleteTree(base);
        }
    }

    private static Map<String, String> withoutOutputs(Map<String, String> snapshot) {
        Map<String, String> m = new TreeMap<>(snapshot);
        m.keySet().removeIf(k -> k.equals("case/out") || k.startsWith("case/out/"));
        return m;
    }

    @Provide
    Arbitrary<Mutation> mutations() {
        return Arbitraries.oneOf(names(), shapes(), fileKinds(), integers());
    }

    // ---- tensor names: renamed consistently where declared and where used, so only the name rule can object ----

    /** {@code OUTSIDE} stands for the case's outside directory (an absolute path). */
    private static final List<String> HOSTILE_NAMES = List.of("../x", "OUTSIDE/sentinel", "OUTSIDE/new", "",
            "\u00fc\u00f1", "a/b", ".", "..", "x y", "x.npy", "1x", "../outside/sentinel", "../../outside/x");

    private Arbitrary<Mutation> names() {
        Arbitrary<String> name = Arbitraries.oneOf(Arbitraries.of(HOSTILE_NAMES),
                Arbitraries.strings().withChars("./_aZ\u00e9 -").ofMinLength(1).ofMaxLength(6));
        Arbitrary<Mutation> chip = Combinators.combine(Arbitraries.of("x", "y", "z"), name).as((t, n) ->
                new Mutation("name", "tensor '" + t + "' renamed \"" + n + "\"", false, c -> {
                    replaceAll(c, c.wd().resolve("manifest.json"), "\"name\" : \"" + t + "\"", n);
                    replaceAll(c, c.wd().resolve("orchestration.json"), "\"slice\" : \"" + t + "\"", n);
                }));
        Arbitrary<Mutation> l3 = Combinators.combine(Arbitraries.of("a", "b", "c", "part"), name).as((t, n) ->
                new Mutation("name", "host tensor '" + t + "' renamed \"" + n + "\"", true, c -> {
                    replaceAll(c, c.wd().resolve("l3.json"), "\"name\" : \"" + t + "\"", n);
                    replaceAll(c, c.wd().resolve("l3.json"), "\"tensor\" : \"" + t + "\"", n);
                }));
        return Arbitraries.oneOf(chip, l3);
    }

    /** Replaces {@code "key" : "old"} by {@code "key" : "<json string of name>"}. */
    private static void replaceAll(Case c, Path file, String from, String name) throws IOException {
        String key = from.substring(0, from.indexOf(':') + 1);
        String n = name.replace("OUTSIDE", c.outside().toString());
        HostileWorkDirs.edit(file, from, key + " \"" + n.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
    }

    // ---- shapes: an extent negative, zero or so large that the byte size overflows --------------------------------

    private Arbitrary<Mutation> shapes() {
        // never a large extent that fits: an output that large would be allocated (the memory budget's concern)
        Arbitrary<Long> extent = Arbitraries.of(-1L, 0L, -4294967296L, Long.MAX_VALUE, 1L << 62, 1L << 61,
                Long.MIN_VALUE);
        Arbitrary<Mutation> chip = Combinators.combine(Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 1), extent).as((decl, dim, e) ->
                new Mutation("shape", "declaration " + decl + " extent " + dim + " = " + e, false,
                        c -> replaceExtent(c.wd().resolve("manifest.json"), decl, dim, e)));
        Arbitrary<Mutation> l3 = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 1), extent).as((decl, dim, e) ->
                new Mutation("shape", "host tensor " + decl + " extent " + dim + " = " + e, true,
                        c -> replaceExtent(c.wd().resolve("l3.json"), decl, dim, e)));
        return Arbitraries.oneOf(chip, l3);
    }

    private static final Pattern SHAPE = Pattern.compile("\"shape\" : \\[ ([^]]*) ]");

    private static void replaceExtent(Path file, int decl, int dim, long extent) throws IOException {
        String text = Files.readString(file);
        Matcher m = SHAPE.matcher(text);
        for (int i = 0; i <= decl; i++) {
            if (!m.find()) {
                throw new IllegalStateException(file + " has fewer than " + (decl + 1) + " shapes");
            }
        }
        String[] extents = m.group(1).split(", ");
        extents[dim] = Long.toString(extent);
        Files.writeString(file, text.substring(0, m.start(1)) + String.join(", ", extents) + text.substring(m.end(1)));
    }

    // ---- file kinds: each file the work dir names, and an input ------------------------------------------------

    enum Kind { MISSING, DIRECTORY, LINK_OUT, FIFO, OVERSIZE }

    private Arbitrary<Mutation> fileKinds() {
        Arbitrary<Mutation> chip = Combinators.combine(Arbitraries.of("wd/manifest.json", "wd/orchestration.json",
                "wd/kernels/add_tile.pto", "wd/" + DefaultRuntimeCfg.FILE, "in/x.npy"), Arbitraries.of(Kind.class))
                .as((f, k) -> new Mutation("file " + k, f + " made " + k, false, c -> makeKind(c, f, k)));
        Arbitrary<Mutation> l3 = Combinators.combine(Arbitraries.of("wd/l3.json", "wd/chips/matmul/manifest.json",
                "wd/chips/vector_add/kernels/add_tile.pto", "wd/chips/matmul", "in/a.npy"), Arbitraries.of(Kind.class))
                .as((f, k) -> new Mutation("file " + k, f + " made " + k, true, c -> makeKind(c, f, k)));
        return Arbitraries.oneOf(chip, l3);
    }

    private static void makeKind(Case c, String file, Kind kind) throws IOException {
        Path p = c.root().resolve(file);
        Path copy = c.outside().resolve("copy-of-" + p.getFileName());
        if (Files.isRegularFile(p)) {
            Files.copy(p, copy);
        }
        if (Files.isDirectory(p)) {
            HostileWorkDirs.deleteTree(p);
        } else {
            Files.deleteIfExists(p);
        }
        switch (kind) {
            case MISSING -> { }
            case DIRECTORY -> Files.createDirectories(p);
            case LINK_OUT -> Files.createSymbolicLink(p, Files.exists(copy) ? copy : c.outside());
            case FIFO -> {
                if (!HostileWorkDirs.mkfifo(p)) {
                    Files.createDirectories(p); // no mkfifo here: another kind of non-regular file
                }
            }
            case OVERSIZE -> {
                try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                    f.setLength(3L << 30); // sparse: costs no disk
                }
            }
        }
    }

    // ---- integers of the JSON files, out of their range --------------------------------------------------------

    private Arbitrary<Mutation> integers() {
        Arbitrary<String> huge = Arbitraries.of("4294967298", "2147483648", "-1", "0", "9223372036854775808",
                "-9223372036854775809", "1e3", "1.5");
        Arbitrary<Mutation> chip = Combinators.combine(Arbitraries.of("\"format_version\" : 1", "\"step\" : 1"), huge)
                .as((f, v) -> new Mutation("integer", f + " -> " + v, false, c -> HostileWorkDirs.edit(
                        c.wd().resolve(f.contains("step") ? "orchestration.json" : "manifest.json"), f,
                        f.substring(0, f.indexOf(':') + 1) + " " + v)));
        Arbitrary<Mutation> l3 = Combinators.combine(Arbitraries.of("\"chips\" : 2", "\"format_version\" : 1",
                "\"after\" : [ ]"), huge).as((f, v) -> new Mutation("integer", f + " -> " + v, true, c -> {
                    String to = f.startsWith("\"after\"") ? "\"after\" : [ " + v + " ]"
                            : f.substring(0, f.indexOf(':') + 1) + " " + v;
                    HostileWorkDirs.edit(c.wd().resolve("l3.json"), f, to);
                }));
        return Arbitraries.oneOf(chip, l3);
    }
}
