package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./jpto} launcher script itself, run on a scratch checkout with a stand-in {@code mvn} and JDK whose
 * {@code java} logs what it was started with: it rebuilds exactly when a module's sources changed, makes the AOT
 * cache after each build and never passes one made from other jars, and a failed build names its module and either
 * runs the last good build saying so or refuses (JPTO_STRICT_BUILD=1).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LauncherTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> MODULES = List.of("jpto-isa", "jpto-models", "jpto-cli");

    /** Stand-in mvn: fails like the compiler on FAKE_MVN_FAIL's module, else writes a new jar ("build N"). */
    private static final String MVN = """
            #!/usr/bin/env bash
            echo "mvn $*" >>"$FAKE_LOG"
            if [ -n "${FAKE_MVN_FAIL:-}" ]; then
                echo "[ERROR] /src/$FAKE_MVN_FAIL/Broken.java:[3,1] error: ';' expected"
                echo "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile\
             (default-compile) on project $FAKE_MVN_FAIL: Compilation failure"
                exit 1
            fi
            n=$(( $(cat build-count 2>/dev/null || echo 0) + 1 ))
            echo "$n" >build-count
            mkdir -p jpto-cli/target/lib
            echo "build $n" >jpto-cli/target/jpto-cli.jar
            echo dep >jpto-cli/target/lib/dep.jar
            """;

    /** Stand-in java: a training run writes the cache from the jar's content; a run logs jar, cache and args. */
    private static final String JAVA = """
            #!/usr/bin/env bash
            jar="" cache="" prev=""
            for a in "$@"; do
                [ "$prev" = -p ] && jar=${a%%:*}
                case $a in -XX:AOTCache=*) cache=${a#-XX:AOTCache=} ;; esac
                prev=$a
            done
            case "${JDK_JAVA_OPTIONS:-}" in
                *-XX:AOTCacheOutput=*)
                    echo "train $(cat "$jar")" >>"$FAKE_LOG"
                    [ -n "${FAKE_TRAIN_FAIL:-}" ] && exit 1
                    out=${JDK_JAVA_OPTIONS##*-XX:AOTCacheOutput=}
                    echo "cache of $(cat "$jar")" >"${out%% *}"
                    exit 0 ;;
            esac
            echo "run $(cat "$jar") cache=[$( [ -n "$cache" ] && cat "$cache")] last=${*: -1}" >>"$FAKE_LOG"
            """;

    @TempDir
    Path root;

    private Path log;
    private final Map<String, String> env = new java.util.HashMap<>();

    @BeforeEach
    void scratchCheckout() throws IOException {
        Files.copy(REPO.resolve("jpto"), root.resolve("jpto"));
        Files.createDirectories(root.resolve("scripts"));
        for (String s : List.of("jdk.sh", "launcher.sh")) {
            Files.copy(REPO.resolve("scripts").resolve(s), root.resolve("scripts").resolve(s));
        }
        StringBuilder pom = new StringBuilder("<project><modules>\n");
        for (String m : MODULES) {
            pom.append("  <module>").append(m).append("</module>\n");
            Files.createDirectories(root.resolve(m).resolve("src/main/java"));
            Files.writeString(root.resolve(m).resolve("pom.xml"), "<project/>");
            Files.writeString(root.resolve(m).resolve("src/main/java/A.java"), "class A {}");
        }
        Files.writeString(root.resolve("pom.xml"), pom.append("  <module>jpto-bench</module>\n</modules></project>"));
        executable(root.resolve("bin/mvn"), MVN);
        executable(root.resolve("jdk/bin/java"), JAVA);
        executable(root.resolve("jdk/bin/javac"), "#!/bin/sh\n");
        Files.writeString(root.resolve("jdk/release"), "JAVA_VERSION=\"25.0.1\"\n");
        log = root.resolve("calls.log");
        env.put("FAKE_LOG", log.toString());
        env.put("JAVA_HOME", root.resolve("jdk").toString());
        env.put("PATH", root.resolve("bin") + ":" + System.getenv("PATH"));
    }

    @Test
    void buildsOnceMakesTheCacheAndUsesIt() throws Exception {
        Result first = launch("--help");
        assertThat(first.exit()).isZero();
        assertThat(first.err()).contains("building jpto (changed: jpto-isa,jpto-models,jpto-cli)");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package",
                "train build 1", "run build 1 cache=[cache of build 1] last=--help");

        Result second = launch("--version");
        assertThat(second.err()).isEmpty();
        assertThat(calls()).containsExactly("run build 1 cache=[cache of build 1] last=--version");
    }

    @Test
    void rebuildsAfterASourceChangeAndNeverRunsTheOldCache() throws Exception {
        launch("--help");
        calls();
        edit("jpto-models/src/main/java/A.java");
        Result r = launch("--help");
        assertThat(r.err()).contains("building jpto (changed: jpto-models)");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package",
                "train build 2", "run build 2 cache=[cache of build 2] last=--help");
    }

    @Test
    void aJarReplacedBehindTheLaunchersBackGetsANewCacheNotTheOldOne() throws Exception {
        launch("--help");
        calls();
        Path jar = root.resolve("jpto-cli/target/jpto-cli.jar");
        Files.writeString(jar, "build by hand");
        launch("--help");
        assertThat(calls()).containsExactly("train build by hand", "run build by hand cache=[cache of build by hand]"
                + " last=--help");
    }

    @Test
    void aFailedTrainingRunMeansNoCacheAndIsNotRetriedForTheSameJars() throws Exception {
        env.put("FAKE_TRAIN_FAIL", "1");
        launch("--help");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package",
                "train build 1", "run build 1 cache=[] last=--help");
        launch("--help");
        assertThat(calls()).containsExactly("run build 1 cache=[] last=--help");
    }

    @Test
    void aBrokenBuildNamesTheModuleAndRunsTheLastGoodBuildSayingSo() throws Exception {
        launch("--help");
        calls();
        edit("jpto-models/src/main/java/A.java");
        env.put("FAKE_MVN_FAIL", "jpto-models");
        Result r = launch("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains("Broken.java:[3,1] error: ';' expected")
                .contains("the build failed in jpto-models").contains("running the last good build")
                .contains("WITHOUT your latest changes");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package",
                "run build 1 cache=[cache of build 1] last=--help");

        env.put("JPTO_STRICT_BUILD", "1");
        Result strict = launch("--help");
        assertThat(strict.exit()).isEqualTo(2);
        assertThat(strict.err()).contains("the build failed in jpto-models").doesNotContain("last good");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package");

        env.remove("FAKE_MVN_FAIL");
        launch("--help");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package",
                "train build 2", "run build 2 cache=[cache of build 2] last=--help");
    }

    @Test
    void aBrokenFirstBuildRefuses() throws Exception {
        env.put("FAKE_MVN_FAIL", "jpto-isa");
        Result r = launch("--help");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("the build failed in jpto-isa");
        assertThat(calls()).containsExactly("mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package");
    }

    private record Result(int exit, String err) {
    }

    private Result launch(String arg) throws IOException, InterruptedException {
        Path err = root.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("jpto").toString(), arg).directory(root.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("JPTO_") || k.equals("JDK_JAVA_OPTIONS"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./jpto " + arg + " did not finish within 60 s");
        }
        return new Result(p.exitValue(), Files.readString(err));
    }

    /** The calls logged since the last look (and forgets them). */
    private List<String> calls() throws IOException {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        Files.deleteIfExists(log);
        return lines;
    }

    /**
     * Edits a source after the last build: sources and the build stamp are moved back in time first (the built jars
     * are left alone: their time is part of the cache key), so no clock tick is needed.
     */
    private void edit(String source) throws IOException {
        FileTime before = FileTime.from(Instant.now().minusSeconds(120));
        Path target = root.resolve("jpto-cli/target");
        try (var files = Files.walk(root)) {
            for (Path f : files.filter(f -> Files.isRegularFile(f) && (!f.startsWith(target)
                    || f.endsWith("last-good-build"))).toList()) {
                Files.setLastModifiedTime(f, before);
            }
        }
        Files.writeString(root.resolve(source), "class A { int edited; }");
    }

    private static void executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
