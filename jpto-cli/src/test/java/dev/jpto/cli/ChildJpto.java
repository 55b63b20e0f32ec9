package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The CLI as a child JVM on this test's class path, and its output read as it comes. */
final class ChildJpto {
    private ChildJpto() {
    }

    /** Drains a child's stream into a buffer on its own thread, so the child never blocks on a full pipe. */
    static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        Drain(InputStream in) {
            this.in = in;
            setDaemon(true);
            start();
        }

        @Override
        public void run() {
            byte[] b = new byte[8192];
            try {
                for (int n; (n = in.read(b)) >= 0; ) {
                    synchronized (buf) {
                        buf.write(b, 0, n);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String text() {
            synchronized (buf) {
                return buf.toString(StandardCharsets.UTF_8);
            }
        }
    }

    static Process startJpto(String... args) throws IOException {
        return startJpto(List.of(), args);
    }

    static Process startJpto(List<String> jvmOptions, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    static void awaitOutput(Drain out, Process p, String marker) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!out.text().contains(marker)) {
            assertThat(p.isAlive()).as("jpto exited before printing '%s':%n%s", marker, out.text()).isTrue();
            assertThat(System.nanoTime()).as("'%s' within 60 s", marker).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
