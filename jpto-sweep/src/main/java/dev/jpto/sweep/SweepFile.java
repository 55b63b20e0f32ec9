package dev.jpto.sweep;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.compiler.run.RunConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads a sweep file (YAML, or JSON, which is YAML too) into its cases: the cross product of programs × presets ×
 * runtime_cfg values × platforms × seeds. Every name is checked before anything runs; a refused one is reported as
 * {@code FILE:LINE: what is wrong; what is allowed}.
 */
public final class SweepFile {
    /** The outcomes an expectation may name besides an {@link ErrorCode}. */
    static final List<String> PLAIN_OUTCOMES = List.of("PASS", "FAIL");
    /** Expectation selector keys besides runtime_cfg keys. */
    private static final List<String> CASE_KEYS = List.of("program", "preset", "platform", "seed");

    private SweepFile() {
    }

    /**
     * The cases of {@code file}, in file order; source programs are resolved against the file's directory.
     *
     * @param env the environment ($JPTO_CACHE_DIR for compiled source programs)
     * @throws SweepFileException for a file that cannot be run, naming the line and the allowed values
     */
    public static List<SweepCase> read(Path file, Map<String, String> env) {
        return read(file, new ProgramRefs(env));
    }

    static List<SweepCase> read(Path file, ProgramRefs refs) {
        return new Expander(file, parse(file), refs).cases();
    }

    static SweepDoc parse(Path file) {
        ObjectMapper mapper = new ObjectMapper(new YAMLFactory())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .registerModule(new SimpleModule().addDeserializer(Located.class, new LocatedDeserializer()));
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new SweepFileException(file + ": no such sweep file");
        } catch (IOException e) {
            throw new SweepFileException(file + ": cannot read the sweep file: " + e.getMessage());
        }
        try {
            SweepDoc doc = mapper.readValue(text, SweepDoc.class);
            if (doc == null) {
                throw new SweepFileException(file + ": the sweep file is empty; it needs at least 'programs:'");
            }
            return doc;
        } catch (UnrecognizedPropertyException e) {
            int line = keyLine(text, e.getPropertyName()).orElse(e.getLocation().getLineNr());
            throw new SweepFileException(file + ":" + line + ": unknown key '"
                    + e.getPropertyName() + "'; allowed keys: " + e.getKnownPropertyIds().stream().map(String::valueOf)
                    .sorted().collect(Collectors.joining(", ")));
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new SweepFileException(file + ":" + line + ": not a valid sweep file: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
    }

    /**
     * The line of a top-level key: Jackson reports an unknown key of a record where it stopped reading (it buffers
     * a record's properties), which can be lines later.
     */
    private static java.util.OptionalInt keyLine(String text, String key) {
        java.util.regex.Pattern keyAt = java.util.regex.Pattern.compile("^\\s*([\"']?)"
                + java.util.regex.Pattern.quote(key) + "\\1\\s*:");
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (keyAt.matcher(lines.get(i)).find()) {
                return java.util.OptionalInt.of(i + 1);
            }
        }
        return java.util.OptionalInt.empty();
    }

    /** A scalar with its line: what lets a later check point at the value it refuses. */
    private static final class LocatedDeserializer extends StdDeserializer<Located> {
        private static final long serialVersionUID = 1L;

        LocatedDeserializer() {
            super(Located.class);
        }

        @Override
        public Located deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            int line = p.currentTokenLocation().getLineNr();
            if (!p.currentToken().isScalarValue() || p.currentToken() == JsonToken.VALUE_NULL) {
                return ctxt.reportInputMismatch(Located.class, "expected a single value (a name, a number or a "
                        + "size such as 512MiB), found " + p.currentToken());
            }
            return new Located(p.getText(), line);
        }
    }

    /** The cross product, with every name checked where it is written. */
    private static final class Expander {
        private final Path file;
        private final SweepDoc doc;
        private final ProgramRefs refs;

        Expander(Path file, SweepDoc doc, ProgramRefs refs) {
            this.file = file;
            this.doc = doc;
            this.refs = refs;
        }

        private SweepFileException error(int line, String message) {
            return new SweepFileException(file + ":" + line + ": " + message);
        }

        List<SweepCase> cases() {
            if (doc.programs() == null || doc.programs().isEmpty()) {
                throw new SweepFileException(file + ":1: 'programs:' is missing: list at least one program");
            }
            int bench = doc.bench() == null ? 0 : doc.bench();
            if (bench < 0) {
                throw new SweepFileException(file + ": bench must be >= 0 rounds: bench: " + bench + " (try 10)");
            }
            List<String> platforms = platforms();
            Map<String, List<String>> cfg = runtimeCfg();
            List<Long> seeds = doc.seeds() == null || doc.seeds().isEmpty() ? List.of(0L) : doc.seeds();
            List<Map.Entry<List<String[]>, String>> expect = expectations(cfg.keySet());
            List<SweepCase> out = new ArrayList<>();
            for (Located p : doc.programs()) {
                String ref = reference(p);
                ProgramDef def = program(p, ref);
                for (String preset : presets(def)) {
                    for (Map<String, String> entries : product(cfg)) {
                        for (String platform : platforms) {
                            for (long seed : seeds) {
                                SweepCase c = new SweepCase(ref, def.name(), preset, entries, platform, seed, bench,
                                        "PASS");
                                out.add(withExpectation(c, expect));
                            }
                        }
                    }
                }
            }
            return List.copyOf(out);
        }

        private String reference(Located p) {
            if (!ProgramRefs.isSource(p.value())) {
                return p.value();
            }
            int hash = p.value().lastIndexOf('#');
            String path = hash < 0 ? p.value() : p.value().substring(0, hash);
            Path dir = file.toAbsolutePath().getParent();
            String abs = dir.resolve(path).normalize().toString();
            return hash < 0 ? abs : abs + p.value().substring(hash);
        }

        private ProgramDef program(Located p, String ref) {
            try {
                return refs.resolve(ref);
            } catch (RuntimeException e) { // an unknown name lists the registered ones; a source error says where
                throw error(p.line(), "program " + p.value() + ": " + e.getMessage());
            }
        }

        private List<String> presets(ProgramDef def) {
            if (doc.presets() == null || doc.presets().isEmpty()) {
                return List.of(def.defaultPreset());
            }
            List<String> out = new ArrayList<>();
            for (Located p : doc.presets()) {
                if (!def.presets().contains(p.value())) {
                    throw error(p.line(), "'" + p.value() + "' is not a preset of " + def.name() + "; valid presets: "
                            + String.join(", ", def.presets()));
                }
                out.add(p.value());
            }
            return out;
        }

        private List<String> platforms() {
            if (doc.platforms() == null || doc.platforms().isEmpty()) {
                return List.of(Platform.A2A3SIM.text());
            }
            List<String> out = new ArrayList<>();
            for (Located p : doc.platforms()) {
                try {
                    out.add(Platform.parse(p.value()).requireSimulated().text());
                } catch (IllegalArgumentException e) {
                    throw error(p.line(), "platform: " + e.getMessage());
                }
            }
            return out;
        }

        /** Each value checked as RunConfig checks a --runtime-cfg entry (its message lists the valid keys). */
        private Map<String, List<String>> runtimeCfg() {
            Map<String, List<String>> out = new LinkedHashMap<>();
            if (doc.runtimeCfg() == null) {
                return out;
            }
            doc.runtimeCfg().forEach((key, values) -> {
                if (values == null || values.isEmpty()) {
                    throw new SweepFileException(file + ": runtime_cfg " + key + ": give a list of values, e.g. "
                            + key + ": [VALUE1, VALUE2]");
                }
                List<String> texts = new ArrayList<>();
                for (Located v : values) {
                    try {
                        RunConfig.defaults().with(key, v.value());
                    } catch (IllegalArgumentException e) {
                        throw error(v.line(), "runtime_cfg " + key + "=" + v.value() + ": " + e.getMessage());
                    }
                    texts.add(v.value());
                }
                out.put(key, texts);
            });
            return out;
        }

        private static List<Map<String, String>> product(Map<String, List<String>> cfg) {
            List<Map<String, String>> out = new ArrayList<>();
            out.add(new LinkedHashMap<>());
            cfg.forEach((key, values) -> {
                List<Map<String, String>> next = new ArrayList<>();
                for (Map<String, String> partial : out) {
                    for (String v : values) {
                        Map<String, String> m = new LinkedHashMap<>(partial);
                        m.put(key, v);
                        next.add(m);
                    }
                }
                out.clear();
                out.addAll(next);
            });
            return out;
        }

        /** {@code "ring_heap=1024,program=basic.matmul": HEAP_RING_DEADLOCK}, selectors checked against the file. */
        private List<Map.Entry<List<String[]>, String>> expectations(java.util.Set<String> cfgKeys) {
            List<Map.Entry<List<String[]>, String>> out = new ArrayList<>();
            if (doc.expect() == null) {
                return out;
            }
            List<String> outcomes = new ArrayList<>(PLAIN_OUTCOMES);
            Arrays.stream(ErrorCode.values()).filter(c -> c != ErrorCode.NONE).forEach(c -> outcomes.add(c.name()));
            List<String> keys = new ArrayList<>(CASE_KEYS);
            keys.addAll(cfgKeys);
            doc.expect().forEach((selector, outcome) -> {
                if (!outcomes.contains(outcome.value())) {
                    throw error(outcome.line(), "expect " + selector + ": unknown outcome '" + outcome.value()
                            + "'; allowed: " + String.join(", ", outcomes));
                }
                List<String[]> terms = new ArrayList<>();
                for (String term : selector.split(",")) {
                    String[] kv = term.trim().split("=", 2);
                    if (kv.length != 2 || !keys.contains(kv[0].trim())) {
                        throw error(outcome.line(), "expect: '" + term.trim() + "' is not KEY=VALUE with KEY one "
                                + "of " + String.join(", ", keys));
                    }
                    terms.add(new String[] {kv[0].trim(), kv[1].trim()});
                }
                out.add(Map.entry(terms, outcome.value()));
            });
            return out;
        }

        /** The first expectation whose every term matches the case; PASS when none does. */
        private static SweepCase withExpectation(SweepCase c, List<Map.Entry<List<String[]>, String>> expect) {
            for (Map.Entry<List<String[]>, String> e : expect) {
                if (e.getKey().stream().allMatch(t -> t[1].equals(field(c, t[0])))) {
                    return new SweepCase(c.program(), c.name(), c.preset(), c.runtimeCfg(), c.platform(), c.seed(),
                            c.bench(), e.getValue());
                }
            }
            return c;
        }

        private static String field(SweepCase c, String key) {
            return switch (key) {
                case "program" -> c.name();
                case "preset" -> c.preset();
                case "platform" -> c.platform();
                case "seed" -> Long.toString(c.seed());
                default -> c.runtimeCfg().get(key);
            };
        }
    }
}
