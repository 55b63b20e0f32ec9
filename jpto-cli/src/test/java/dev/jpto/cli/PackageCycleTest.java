package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * JPMS already forbids cycles between modules; this keeps packages inside every module acyclic too, by
 * reading the {@code import dev.jpto…} lines of all main sources and every fully-qualified {@code dev.jpto…} type
 * in their code (comments and string literals aside), in every module (tests run with the module dir as cwd).
 */
class PackageCycleTest {
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?(dev\\.jpto[\\w.]*)\\.[\\w*]+;");
    /** A fully-qualified jpto type in code: lower-case package segments, then a class name. */
    private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.jpto(?:\\.[a-z_][\\w]*)+(?=\\.[A-Z])");
    /** Comments, text blocks, strings and char literals: names in them are no dependency. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])+'");

    @Test
    void packagesFormNoCycle() throws IOException {
        Map<String, Set<String>> graph = importGraph(Path.of("..").toAbsolutePath().normalize());
        assertThat(graph).as("packages found").containsKeys("dev.jpto.isa", "dev.jpto.cli", "dev.jpto.models.dsv4", "dev.jpto.tools.fuzz");
        assertThat(cycles(graph)).as("package cycles (strongly connected components)").isEmpty();
    }

    /** Compiling and loading know nothing of running: the compiler's root package never reaches the run surfaces. */
    @Test
    void theCompilerRootDoesNotDependOnTheRunSurfaces() throws IOException {
        Map<String, Set<String>> graph = importGraph(Path.of("..").toAbsolutePath().normalize());
        assertThat(graph).containsKeys("dev.jpto.compiler", "dev.jpto.compiler.launch");
        assertThat(graph.get("dev.jpto.compiler.launch")).contains("dev.jpto.compiler");
        assertThat(graph.get("dev.jpto.compiler")).doesNotContain("dev.jpto.compiler.launch");
    }

    @Test
    void fullyQualifiedNamesInCodeCountAndThoseInCommentsOrStringsDoNot() throws IOException {
        Path dir = Files.createTempDirectory("cycle");
        try {
            Path a = dir.resolve("x/src/main/java/A.java");
            Files.createDirectories(a.getParent());
            Files.writeString(a, """
                    package dev.jpto.a;
                    /** see {@link dev.jpto.c.C} */
                    class A {
                        dev.jpto.b.B b; // dev.jpto.d.D
                        String s = "dev.jpto.e.E";
                    }
                    """);
            assertThat(importGraph(dir)).containsEntry("dev.jpto.a", new TreeSet<>(Set.of("dev.jpto.b")));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void detectsACycleWhenThereIsOne() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("a", new TreeSet<>(Set.of("b")));
        graph.put("b", new TreeSet<>(Set.of("c")));
        graph.put("c", new TreeSet<>(Set.of("a")));
        graph.put("d", new TreeSet<>(Set.of("a")));
        assertThat(cycles(graph)).containsExactly(List.of("a", "b", "c"));
    }

    private static Map<String, Set<String>> importGraph(Path root) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .forEach(p -> addFile(graph, p));
        }
        return graph;
    }

    private static void addFile(Map<String, Set<String>> graph, Path file) {
        String src;
        try {
            src = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher pm = PACKAGE.matcher(src);
        if (!pm.find()) {
            return;
        }
        String pkg = pm.group(1);
        Set<String> deps = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
        Matcher im = IMPORT.matcher(src);
        while (im.find()) {
            String target = packageOf(im.group(1));
            if (!target.equals(pkg)) {
                deps.add(target);
            }
        }
        String code = NOT_CODE.matcher(src).replaceAll(" ").replaceAll("(?m)^(package|import)\\s[^;]*;", " ");
        Matcher qm = QUALIFIED.matcher(code);
        while (qm.find()) {
            if (!qm.group().equals(pkg)) {
                deps.add(qm.group());
            }
        }
    }

    /** Drops trailing class names (upper-case segments) from an import's qualifier. */
    private static String packageOf(String qualifier) {
        String[] parts = qualifier.split("\\.");
        StringBuilder sb = new StringBuilder();
        for (String part : parts) {
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
            sb.append(sb.isEmpty() ? "" : ".").append(part);
        }
        return sb.toString();
    }

    /** Tarjan's strongly connected components of size > 1, each sorted. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, graph, index, low, stack, onStack, out, counter);
            }
        }
        return out;
    }

    private static void strongConnect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<List<String>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strongConnect(w, graph, index, low, stack, onStack, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                out.add(component);
            }
        }
    }
}
