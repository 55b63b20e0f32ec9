package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The published API is what the module descriptors export to everyone ({@code exports p;}, not {@code exports p to
 * …}): every such package has a documented package-info and a javadoc comment on every public type, and
 * docs/api.md lists exactly these packages. Sources are parsed with the JDK's compiler (parse only, no
 * compilation), in every module (tests run with the module dir as cwd).
 */
class PublishedApiTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** An unqualified export; a qualified one ({@code exports p to m;}) is for jpto's own modules. */
    private static final Pattern EXPORT = Pattern.compile("\\bexports\\s+([\\w.]+)\\s*;");
    private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    /** A package named in docs/api.md's table: its first column, in backticks. */
    private static final Pattern DOCUMENTED = Pattern.compile("(?m)^\\|\\s*`(dev\\.jpto[\\w.]*)`");

    /** Published package → its source directory. */
    static TreeMap<String, Path> publishedPackages(Path root) throws IOException {
        TreeMap<String, Path> out = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path descriptor : modules.map(m -> m.resolve("src/main/java/module-info.java"))
                    .filter(Files::isRegularFile).toList()) {
                Matcher m = EXPORT.matcher(COMMENT.matcher(Files.readString(descriptor)).replaceAll(""));
                while (m.find()) {
                    out.put(m.group(1), descriptor.getParent().resolve(m.group(1).replace('.', '/')));
                }
            }
        }
        return out;
    }

    /** {@code file:line type} for each public type without a javadoc comment, and each package without one. */
    static List<String> undocumented(Iterable<Path> packageDirs) throws IOException {
        List<Path> files = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Path dir : packageDirs) {
            if (!Files.isRegularFile(dir.resolve("package-info.java"))) {
                missing.add(dir + ": no package-info.java");
            }
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null)) {
            JavacTask task = (JavacTask) javac.getTask(null, fm, null, List.of("-proc:none"), null,
                    fm.getJavaFileObjectsFromPaths(files));
            DocTrees trees = DocTrees.instance(task);
            for (CompilationUnitTree unit : task.parse()) {
                if (unit.getSourceFile().getName().endsWith("package-info.java")) {
                    TreePath pkg = new TreePath(new TreePath(unit), unit.getPackage());
                    if (trees.getDocComment(pkg) == null) {
                        missing.add(unit.getSourceFile().getName() + ": package without a javadoc comment");
                    }
                    continue;
                }
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitClass(ClassTree type, Void unused) {
                        if (!isPublic(getCurrentPath())) {
                            return null; // nor anything nested in it
                        }
                        if (trees.getDocComment(getCurrentPath()) == null) {
                            long line = unit.getLineMap().getLineNumber(trees.getSourcePositions()
                                    .getStartPosition(unit, type));
                            missing.add(unit.getSourceFile().getName() + ":" + line + " " + type.getSimpleName());
                        }
                        return super.visitClass(type, unused);
                    }
                }.scan(unit, null);
            }
        }
        return missing;
    }

    /** Public, or a member of an interface (implicitly public); its enclosing types are checked on the way in. */
    private static boolean isPublic(TreePath path) {
        ClassTree type = (ClassTree) path.getLeaf();
        if (type.getModifiers().getFlags().contains(Modifier.PUBLIC)) {
            return true;
        }
        Tree parent = path.getParentPath().getLeaf();
        return parent instanceof ClassTree c && (c.getKind() == Tree.Kind.INTERFACE
                || c.getKind() == Tree.Kind.ANNOTATION_TYPE);
    }

    @Test
    void everyPublishedPackageAndPublicTypeHasJavadoc() throws IOException {
        TreeMap<String, Path> published = publishedPackages(ROOT);
        assertThat(published).as("published packages").containsKeys("dev.jpto.lib.registry", "dev.jpto.compiler.dsl",
                "dev.jpto.isa");
        assertThat(published.values()).allSatisfy(dir -> assertThat(dir).isDirectory());
        assertThat(undocumented(published.values())).as("undocumented in the published API").isEmpty();
    }

    @Test
    void docsApiListsExactlyThePublishedPackages() throws IOException {
        Set<String> documented = new TreeSet<>();
        Matcher m = DOCUMENTED.matcher(Files.readString(ROOT.resolve("docs/api.md")));
        while (m.find()) {
            documented.add(m.group(1));
        }
        assertThat(documented).as("packages in docs/api.md's table").isEqualTo(publishedPackages(ROOT).keySet());
    }

    @Test
    void toolsModelsAndTheCommandPublishNothing() throws IOException {
        assertThat(publishedPackages(ROOT).keySet()).noneMatch(p -> p.startsWith("dev.jpto.models")
                || p.startsWith("dev.jpto.tools") || p.startsWith("dev.jpto.sweep") || p.startsWith("dev.jpto.cli")
                || p.equals("dev.jpto.lib.load"));
    }

    @Test
    void aMissingJavadocIsFoundOnNestedTypesAndPackages() throws IOException {
        Path dir = Files.createTempDirectory("api-doc");
        try {
            Files.writeString(dir.resolve("A.java"), """
                    package x;

                    /** Documented. */
                    @Deprecated
                    public final class A {
                        public record Nested(int n) {
                        }

                        interface Hidden {
                            record Inner() {
                            }
                        }
                    }
                    """);
            Files.writeString(dir.resolve("package-info.java"), "package x;\n");
            assertThat(undocumented(List.of(dir))).containsExactlyInAnyOrder(
                    dir.resolve("A.java") + ":6 Nested",
                    dir.resolve("package-info.java") + ": package without a javadoc comment");
        } finally {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
