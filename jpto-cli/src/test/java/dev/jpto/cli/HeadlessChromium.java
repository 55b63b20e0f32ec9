package dev.jpto.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless Chromium, driven from the command line: the DOM of a page after its scripts ran, and a
 * screenshot. Each call uses a fresh profile and is bounded in time.
 */
final class HeadlessChromium {
    private static final long TIMEOUT_SECONDS = 120;
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");

    private final Path binary;
    private final Path scratch;

    private HeadlessChromium(Path binary, Path scratch) {
        this.binary = binary;
        this.scratch = scratch;
    }

    /**
     * Finds Chromium ($JPTO_CHROMIUM, else chromium on the PATH).
     *
     * @throws AssertionError saying how to install it when there is none
     */
    static HeadlessChromium find(Path scratch) {
        Optional<Path> found = Optional.ofNullable(System.getenv("JPTO_CHROMIUM")).map(Path::of)
                .filter(Files::isExecutable);
        for (String name : NAMES) {
            if (found.isPresent()) {
                break;
            }
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    found = Optional.of(p);
                    break;
                }
            }
        }
        return new HeadlessChromium(found.orElseThrow(() -> new AssertionError("the report tests need headless "
                + "Chromium and found none (looked for $JPTO_CHROMIUM, then " + NAMES + " on the PATH): install it "
                + "with 'apt-get install -y chromium' (.ci/run does this when it is missing)")), scratch);
    }

    /** What Chromium printed and the page's DOM after its scripts ran (and timers up to 5 s of virtual time). */
    record Page(String dom, String log) {
        /** The text of the element with {@code id}, unescaped. */
        String text(String id) {
            Matcher m = Pattern.compile("<pre id=\"" + id + "\"[^>]*>(.*?)</pre>", Pattern.DOTALL).matcher(dom);
            if (!m.find()) {
                throw new AssertionError("no element #" + id + " in the page's DOM");
            }
            return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
        }

        /** Console messages of the page that are errors (Chromium logs them as CONSOLE lines). */
        List<String> consoleErrors() {
            return log.lines().filter(l -> l.contains("CONSOLE") && (l.contains("Uncaught") || l.contains("Error")))
                    .toList();
        }
    }

    Page dump(Path html) throws IOException, InterruptedException {
        Run r = run(html, "--dump-dom");
        return new Page(r.stdout, r.stderr);
    }

    void screenshot(Path html, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        run(html, "--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars");
        if (!Files.isRegularFile(png)) {
            throw new AssertionError("Chromium wrote no screenshot " + png);
        }
    }

    private record Run(String stdout, String stderr) {
    }

    private Run run(Path html, String... what) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(scratch, "chromium-profile");
        Path out = scratch.resolve("chromium-" + System.nanoTime() + ".out");
        Path err = scratch.resolve("chromium-" + System.nanoTime() + ".err");
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile, "--enable-logging=stderr",
                "--v=0", "--virtual-time-budget=5000"));
        cmd.addAll(List.of(what));
        cmd.add(html.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError("Chromium exited with " + p.exitValue() + ": " + cmd + "\n" + stderr);
        }
        return new Run(Files.readString(out, StandardCharsets.UTF_8), stderr);
    }
}
