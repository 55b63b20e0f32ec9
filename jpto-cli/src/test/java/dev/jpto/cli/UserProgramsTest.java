package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.lib.load.ProgramLoadException;
import dev.jpto.lib.load.UserPrograms;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import dev.jpto.lib.registry.Programs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Programs from a user's sources and jars: compiled in-process, cached by content, loaded beside the built-ins. */
@Timeout(120)
class UserProgramsTest {
    @TempDir
    Path tmp;

    /**
     * A provider class {@code name} in the default package with one program {@code program} described {@code d},
     * importing only the published API (these tests list programs; they never build one).
     */
    private static String provider(String name, String program, String description) {
        return """
                import dev.jpto.lib.registry.PresetProgram;
                import dev.jpto.lib.registry.ProgramDef;
                import dev.jpto.lib.registry.ProgramProvider;
                import java.util.List;

                public final class %s implements ProgramProvider {
                    @Override
                    public List<ProgramDef> programs() {
                        return List.of(new PresetProgram<String>("%s", "%s", List.of("tiny"), n -> n, "tiny",
                                n -> { throw new UnsupportedOperationException("listed, never built"); }));
                    }
                }
                """.formatted(name, program, description);
    }

    private Path write(String file, String text) throws IOException {
        Path p = tmp.resolve("src").resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    @Test
    void aSourceFileIsCompiledOnceAndAnEditTakesEffect() throws IOException {
        Path cache = tmp.resolve("cache");
        Path src = write("Mine.java", provider("Mine", "mine.add", "first"));

        UserPrograms.Loaded first = UserPrograms.fromSources(src, null, cache);
        assertThat(first.note()).startsWith("compiled ");
        assertThat(first.programs()).extracting(ProgramDef::name).containsExactly("mine.add");
        assertThat(first.programs().getFirst().description()).isEqualTo("first");

        UserPrograms.Loaded again = UserPrograms.fromSources(src, null, cache);
        assertThat(again.note()).contains("unchanged").contains("cached classes");

        Files.writeString(src, provider("Mine", "mine.add", "edited"));
        UserPrograms.Loaded edited = UserPrograms.fromSources(src, null, cache);
        assertThat(edited.note()).startsWith("compiled ");
        assertThat(edited.programs().getFirst().description()).isEqualTo("edited");
        try (Stream<Path> entries = Files.list(cache)) {
            assertThat(entries.filter(p -> !p.getFileName().toString().startsWith("compiling-"))).hasSize(2);
        }
    }

    @Test
    void aCompileErrorNamesFileLineAndColumn() throws IOException {
        Path src = write("Broken.java", "public final class Broken {\n    int x = ;\n}\n");
        assertThatThrownBy(() -> UserPrograms.fromSources(src, null, tmp.resolve("cache")))
                .isInstanceOf(ProgramLoadException.class)
                .hasMessageContaining("does not compile")
                .hasMessageContaining(src + ":2:13: error: illegal start of expression");
        try (Stream<Path> entries = Files.list(tmp.resolve("cache"))) {
            assertThat(entries).as("nothing cached for a failed compile").isEmpty();
        }
    }

    @Test
    void aSourceSeesOnlyThePublishedPackages() throws IOException {
        Path src = write("Reach.java", "import dev.jpto.lib.load.UserPrograms;\n\npublic final class Reach {\n}\n");
        assertThatThrownBy(() -> UserPrograms.fromSources(src, null, tmp.resolve("cache")))
                .isInstanceOf(ProgramLoadException.class)
                .hasMessageContaining(src + ":1:20: error: package dev.jpto.lib.load is not visible")
                .hasMessageContaining("declared in module dev.jpto.lib, which does not export it to the unnamed module");
    }

    @Test
    void sourcesWithoutAProviderAreRefused() throws IOException {
        Path src = write("Plain.java", "public final class Plain {\n}\n");
        assertThatThrownBy(() -> UserPrograms.fromSources(src, null, tmp.resolve("cache")))
                .isInstanceOf(ProgramLoadException.class)
                .hasMessageContaining("declares no program")
                .hasMessageContaining("dev.jpto.lib.registry.ProgramProvider");
    }

    @Test
    void aDirectoryCompilesItsFilesTogether() throws IOException {
        write("dir/Helper.java", "public final class Helper {\n    static String text() {\n        return \"from helper\";"
                + "\n    }\n}\n");
        write("dir/Uses.java", provider("Uses", "mine.uses", "\" + Helper.text() + \""));
        UserPrograms.Loaded l = UserPrograms.fromSources(tmp.resolve("src/dir"), null, tmp.resolve("cache"));
        assertThat(l.programs()).extracting(ProgramDef::description).containsExactly("from helper");
        assertThat(l.note()).contains("2 files");
    }

    @Test
    void aJarOnTheProgramPathRegistersItsProvidersAndDuplicatesNameBothOrigins() throws IOException {
        Path src = write("FromJar.java", provider("FromJar", "jar.add", "in a jar"));
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path"), src.toString());
        assertThat(rc).isZero();
        Path jar = tmp.resolve("programs.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("FromJar.class"));
            Files.copy(classes.resolve("FromJar.class"), out);
            out.putNextEntry(new JarEntry("META-INF/services/dev.jpto.lib.registry.ProgramProvider"));
            out.write("FromJar\n".getBytes(StandardCharsets.UTF_8));
        }
        UserPrograms.Loaded l = UserPrograms.fromProgramPath(jar);
        assertThat(l.programs()).extracting(ProgramDef::name).containsExactly("jar.add");
        ProgramRegistry r = Programs.registry().with(l.programs(), l.origin());
        assertThat(r.origin("jar.add")).contains(jar.toString());
        assertThat(r.origin("basic.matmul")).contains(ProgramRegistry.BUILT_IN);

        assertThatThrownBy(() -> r.with(l.programs(), "/elsewhere/other.jar"))
                .hasMessageContaining("program 'jar.add' is defined twice")
                .hasMessageContaining(jar.toString()).hasMessageContaining("/elsewhere/other.jar");
    }

    @Test
    void aProgramPathEntryMustExistAndDeclareProviders() throws IOException {
        assertThatThrownBy(() -> UserPrograms.fromProgramPath(tmp.resolve("nope.jar")))
                .hasMessageContaining("nope.jar").hasMessageContaining("no such file or directory");
        Path empty = tmp.resolve("empty");
        Files.createDirectories(empty);
        assertThatThrownBy(() -> UserPrograms.fromProgramPath(empty))
                .hasMessageContaining("declares no program").hasMessageContaining("META-INF/services");
    }

    @Test
    void theBuiltInModelsRegisterThroughProviders() {
        assertThat(Programs.registry().entries()).allSatisfy(e ->
                assertThat(e.origin()).isEqualTo(ProgramRegistry.BUILT_IN));
        assertThat(Programs.registry().names()).contains("basic.matmul", "dsv4.moe", "l3.tiled_matmul");
    }

    @Test
    void theCacheRootFollowsTheEnvironment() {
        assertThat(UserPrograms.defaultCacheRoot(java.util.Map.of("JPTO_CACHE_DIR", "/x/c")))
                .isEqualTo(Path.of("/x/c/classes"));
        assertThat(UserPrograms.defaultCacheRoot(java.util.Map.of("XDG_CACHE_HOME", "/x/xdg")))
                .isEqualTo(Path.of("/x/xdg/jpto/classes"));
    }
}
