package dev.jpto.cli;

import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code jpto new NAME}: a starter program that runs as written, as one source file or as a Maven project. */
@Command(name = "new", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Write a starter program: one .java file with a kernel, an orchestration, inputs, a golden "
                + "and a comparator (run it with 'jpto run FILE'), or with --maven a Maven project whose 'mvn test' "
                + "runs it through the golden runner."})
final class NewCommand implements Callable<Integer> {
    /** A program name: lower-case words joined by '_', optionally dotted (family.name). */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
    /** The family of a NAME given without one. */
    static final String DEFAULT_FAMILY = "user";
    private static final String JUNIT_VERSION = "5.14.4";

    @ParentCommand
    JptoCommand top;

    @Parameters(index = "0", paramLabel = "NAME",
            description = "the program's name, e.g. relu_dense or my.relu_dense (without a family: user.NAME)")
    String name;

    @Option(names = "--dir", paramLabel = "DIR", description = "where to write it (default: ./<last part of NAME>)")
    Path dir;

    @Option(names = "--maven", description = "a Maven project (pom.xml, src/main, src/test) instead of one file")
    boolean maven;

    @Override
    public Integer call() {
        return Outcome.of("new", top.err, false, () -> {
            if (!NAME.matcher(name).matches()) {
                throw new UsageException("NAME '" + name + "' is not a program name: lower-case letters, digits and "
                        + "'_', starting with a letter, parts joined by '.' (e.g. relu_dense or my.relu_dense)");
            }
            String program = name.contains(".") ? name : DEFAULT_FAMILY + "." + name;
            String base = program.substring(program.lastIndexOf('.') + 1);
            String className = className(base);
            Path target = dir != null ? dir : Path.of(base);
            if (Files.exists(target) && !(Files.isDirectory(target) && isEmpty(target))) {
                throw new UsageException("--dir " + target + " exists and is not an empty directory: pick another "
                        + "(jpto new never overwrites files)");
            }
            Map<String, String> vars = new LinkedHashMap<>();
            vars.put("__CLASS__", className);
            vars.put("__PROGRAM__", program);
            vars.put("__ARTIFACT__", base.replace('_', '-'));
            vars.put("__JPTO_VERSION__", new JptoCommand.Version().number());
            vars.put("__JUNIT_VERSION__", JUNIT_VERSION);
            Map<Path, String> files = new LinkedHashMap<>();
            if (maven) {
                vars.put("__FILE__", "src/main/java/" + className + ".java");
                files.put(Path.of("pom.xml"), "pom.xml.txt");
                files.put(Path.of("src/main/java", className + ".java"), "Program.java.txt");
                files.put(Path.of("src/main/resources/META-INF/services/dev.jpto.lib.registry.ProgramProvider"),
                        "services.txt");
                files.put(Path.of("src/test/java", className + "Test.java"), "ProgramTest.java.txt");
                files.put(Path.of("README.md"), "README-maven.md.txt");
            } else {
                vars.put("__FILE__", target.resolve(className + ".java").toString());
                files.put(Path.of(className + ".java"), "Program.java.txt");
                files.put(Path.of("README.md"), "README.md.txt");
            }
            for (Map.Entry<Path, String> f : files.entrySet()) {
                String text = fill(template(f.getValue()), vars);
                Path file = target.resolve(f.getKey());
                Files.createDirectories(file.getParent() == null ? target : file.getParent());
                AtomicFile.writeString(file, text);
            }
            top.out.println("[NEW] " + program + " → " + target + (maven ? " (Maven project)" : ""));
            top.out.println("[NEW] run it: " + (maven ? "cd " + target + " && mvn test   (jpto's artifacts: "
                    + "'mvn -DskipTests install' in jpto's checkout first)" : "jpto run " + vars.get("__FILE__")));
            return ExitCodes.PASS;
        });
    }

    /** relu_dense → ReluDense. */
    static String className(String base) {
        StringBuilder sb = new StringBuilder();
        for (String part : base.split("_")) {
            if (!part.isEmpty()) {
                sb.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
            }
        }
        return sb.toString();
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    private static String fill(String text, Map<String, String> vars) {
        String out = text;
        for (Map.Entry<String, String> v : vars.entrySet()) {
            out = out.replace(v.getKey(), v.getValue());
        }
        return out;
    }

    private static String template(String resource) {
        try (InputStream in = NewCommand.class.getResourceAsStream("starter/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("the jpto-cli jar lacks its starter " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
