package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** A user's own programs through the command line: source files, starters, jars on the program path. */
@Timeout(180)
class UserProgramsCliTest {
    /** The tutorial's program, in the repository's examples/ (tests run in the module's directory). */
    static final Path TUTORIAL = Path.of("..", "examples", "ReluDense.java");

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    private int jpto(Map<String, String> env, String... args) {
        outBuf.reset();
        errBuf.reset();
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), env, args);
    }

    private int jpto(String... args) {
        return jpto(Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString()), args);
    }

    private String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theTutorialRunsFromItsSourceFile() {
        assertThat(jpto("run", TUTORIAL.toString())).as(err()).isZero();
        assertThat(out()).contains("[RUN] compiled " + TUTORIAL).contains("[RUN] tutorial.relu_dense preset=tiny")
                .contains("'y' PASS").contains("[RUN] PASS");
    }

    @Test
    void aStarterRunsAsWrittenAndAnEditTakesEffect() throws IOException {
        Path dir = tmp.resolve("axpy");
        assertThat(jpto("new", "axpy", "--dir", dir.toString())).as(err()).isZero();
        Path src = dir.resolve("Axpy.java");
        assertThat(src).isRegularFile();
        assertThat(dir.resolve("README.md")).content().contains("jpto run " + src);

        assertThat(jpto("run", src.toString())).as(err()).isZero();
        assertThat(out()).contains("[RUN] compiled ").contains("[RUN] user.axpy preset=tiny").contains("[RUN] PASS");
        assertThat(jpto("run", src.toString())).isZero();
        assertThat(out()).contains("unchanged (1 file): cached classes").doesNotContain("[RUN] compiled");

        // the golden now disagrees with the kernel (alpha 3 in the reference only): the edit must reach the run
        String text = Files.readString(src);
        Files.writeString(src, text.replace("z.setDouble(i, (float) (ALPHA * x", "z.setDouble(i, (float) (3 * x"));
        assertThat(jpto("run", src.toString())).isEqualTo(ExitCodes.VALIDATION_FAIL);
        assertThat(out()).contains("[RUN] compiled ").contains("'z' FAIL");

        Files.writeString(src, text.replace("static final double ALPHA = 2.0;", "static final double ALPHA = 2.0"));
        assertThat(jpto("run", src.toString())).isEqualTo(ExitCodes.USAGE);
        int line = lineOf(text, "static final double ALPHA = 2.0;");
        assertThat(err()).contains(src + " does not compile").contains(src.toAbsolutePath() + ":" + line + ":")
                .contains("error: ';' expected").doesNotContain("\tat ");
    }

    private static int lineOf(String text, String needle) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) {
                return i + 1;
            }
        }
        throw new AssertionError(needle + " not in the starter");
    }

    @Test
    void aMavenStarterIsAWellFormedProjectWhoseSourcesDeclareTheProgram() throws Exception {
        Path dir = tmp.resolve("mvn");
        assertThat(jpto("new", "my.gemm_relu", "--dir", dir.toString(), "--maven")).as(err()).isZero();
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("pom.xml")
                .toFile());
        assertThat(pom.getElementsByTagName("artifactId").item(0).getTextContent()).isEqualTo("gemm-relu");
        assertThat(Files.readString(dir.resolve("pom.xml"))).contains("<artifactId>jpto-lib</artifactId>")
                .doesNotContain("__");
        assertThat(dir.resolve("src/main/resources/META-INF/services/dev.jpto.lib.registry.ProgramProvider"))
                .content().isEqualToIgnoringNewLines("GemmRelu");
        assertThat(dir.resolve("src/test/java/GemmReluTest.java")).content().contains("GoldenRunner.runJit");
        assertThat(jpto("list", "--source-path", dir.resolve("src/main/java").toString())).as(err()).isZero();
        assertThat(out()).contains("my.gemm_relu").contains("[" + dir.resolve("src/main/java") + "]");
    }

    @Test
    void newRefusesBadNamesAndNonEmptyDirectories() throws IOException {
        assertThat(jpto("new", "Bad-Name")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("NAME 'Bad-Name' is not a program name");
        Path used = tmp.resolve("used");
        Files.createDirectories(used);
        Files.writeString(used.resolve("keep.txt"), "mine");
        assertThat(jpto("new", "x", "--dir", used.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("is not an empty directory");
        assertThat(used.resolve("keep.txt")).content().isEqualTo("mine");
    }

    @Test
    void aJarOnTheProgramPathIsListedWithItsOriginAndClashesNameBoth() throws IOException {
        Path jar = providerJar("OneMore", "basic.extra");
        assertThat(jpto("list", "--program-path", jar.toString())).as(err()).isZero();
        assertThat(out()).contains("basic.extra").contains("[" + jar + "]");
        assertThat(jpto("run", "basic.extra", "--preset", "tiny", "--program-path", jar.toString())).as(err())
                .isZero();

        Map<String, String> env = Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString(), "JPTO_PROGRAM_PATH",
                jar.toString());
        assertThat(jpto(env, "list")).isZero();
        assertThat(out()).contains("basic.extra");

        Path clash = providerJar("Clash", "basic.matmul");
        assertThat(jpto("list", "--program-path", clash.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("program 'basic.matmul' is defined twice: by built-in and by " + clash);
    }

    /** A jar whose provider {@code cls} registers vector_add's tiny preset as {@code program}. */
    private Path providerJar(String cls, String program) throws IOException {
        Path src = tmp.resolve("jar-src").resolve(cls + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                import dev.jpto.lib.registry.PresetProgram;
                import dev.jpto.lib.registry.ProgramDef;
                import dev.jpto.lib.registry.ProgramProvider;
                import dev.jpto.lib.registry.ProgramSpec;
                import dev.jpto.lib.registry.Programs;
                import java.util.List;

                public final class %s implements ProgramProvider {
                    public List<ProgramDef> programs() {
                        return List.of(new PresetProgram<>("%s", "vector_add under another name", List.of("tiny"),
                                n -> n, "tiny",
                                n -> rename(Programs.registry().get("basic.vector_add").spec(n))));
                    }

                    static ProgramSpec rename(ProgramSpec s) {
                        return new ProgramSpec("%s", s.preset(), s.body(), s.inputs(), s.golden(), s.comparators(),
                                s.runtimeCfg(), s.outputFills());
                    }
                }
                """.formatted(cls, program, program));
        Path classes = tmp.resolve("jar-classes-" + cls);
        Files.createDirectories(classes);
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), src.toString())).isZero();
        Path jar = tmp.resolve(cls + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(cls + ".class"));
            Files.copy(classes.resolve(cls + ".class"), out);
            out.putNextEntry(new JarEntry("META-INF/services/dev.jpto.lib.registry.ProgramProvider"));
            out.write((cls + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    @Test
    void severalProgramsInOneSourceNeedAName() throws IOException {
        Path src = tmp.resolve("Two.java");
        Files.writeString(src, """
                import dev.jpto.lib.registry.ProgramDef;
                import dev.jpto.lib.registry.ProgramProvider;
                import dev.jpto.lib.registry.Programs;
                import java.util.List;

                public final class Two implements ProgramProvider {
                    public List<ProgramDef> programs() {
                        return List.of(alias("two.a"), alias("two.b"));
                    }

                    static ProgramDef alias(String name) {
                        ProgramDef d = Programs.registry().get("basic.vector_add");
                        return new ProgramDef() {
                            public String name() { return name; }
                            public String description() { return d.description(); }
                            public List<String> presets() { return d.presets(); }
                            public String defaultPreset() { return "tiny"; }
                            public dev.jpto.lib.registry.ProgramSpec spec(String p) { return d.spec(p); }
                        };
                    }
                }
                """);
        assertThat(jpto("plan", src.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("declares 2 programs (two.a, two.b): pick one as " + src + "#NAME");
        assertThat(jpto("compile", src + "#two.b", "-o", tmp.resolve("wd").toString())).as(err()).isZero();
        assertThat(tmp.resolve("wd/manifest.json")).isRegularFile();
    }

    /** The end-to-end path: a separate JVM runs the tutorial's source file the way a user's shell would. */
    @Test
    void aSeparateProcessRunsTheTutorial() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", TUTORIAL.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JPTO_CACHE_DIR", tmp.resolve("cache").toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("[RUN] PASS");
    }
}
