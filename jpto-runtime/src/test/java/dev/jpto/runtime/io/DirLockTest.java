package dev.jpto.runtime.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
@SuppressWarnings("try") // locks held for their scope
class DirLockTest {
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path tmp;

    @Test
    void aSecondHolderWaitsTheBoundedTimeThenRefusesNamingTheFirst() throws IOException {
        Path dir = tmp.resolve("out"); // created by the lock
        try (DirLock held = DirLock.acquire(dir, "jpto run basic.matmul --output-dir out", SHORT)) {
            assertThat(Files.readString(dir.resolve(DirLock.FILE_NAME)))
                    .isEqualTo(PID + " jpto run basic.matmul --output-dir out\n");
            long start = System.nanoTime();
            assertThatThrownBy(() -> DirLock.acquire(dir, "jpto compile x -o out", SHORT))
                    .isInstanceOf(DirInUseException.class)
                    .hasMessage(dir + " is in use by another jpto command (pid " + PID + " (this process): jpto run "
                            + "basic.matmul --output-dir out), still after waiting 0.3s: let it finish, or use "
                            + "another directory");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT);
        }
        try (DirLock again = DirLock.acquire(dir, "jpto compile x -o out", Duration.ZERO)) {
            assertThat(Files.readString(dir.resolve(DirLock.FILE_NAME))).isEqualTo(PID + " jpto compile x -o out\n");
        }
        // released: the file stays (see DirLock), emptied
        assertThat(Files.readString(dir.resolve(DirLock.FILE_NAME))).isEmpty();
    }

    @Test
    void aWaiterGetsTheLockWhenTheHolderFinishesWithinTheWait() throws Exception {
        DirLock held = DirLock.acquire(tmp, "first", SHORT);
        CompletableFuture<DirLock> second = CompletableFuture.supplyAsync(() -> {
            try {
                return DirLock.acquire(tmp, "second", Duration.ofSeconds(30));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Thread.sleep(200);
        assertThat(second).isNotDone();
        held.close();
        try (DirLock got = second.get(30, TimeUnit.SECONDS)) {
            assertThat(Files.readString(tmp.resolve(DirLock.FILE_NAME))).isEqualTo(PID + " second\n");
        }
    }

    @Test
    void anInterruptedWaiterStopsWaiting() throws Exception {
        try (DirLock held = DirLock.acquire(tmp, "first", SHORT)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread waiter = Thread.ofPlatform().start(() -> {
                try {
                    DirLock.acquire(tmp, "second", Duration.ofMinutes(5)).close();
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            Thread.sleep(200);
            waiter.interrupt();
            waiter.join(Duration.ofSeconds(30));
            assertThat(waiter.isAlive()).isFalse();
            assertThat(failure.get()).isInstanceOf(CancellationException.class)
                    .hasMessageContaining("interrupted while waiting for " + tmp).hasMessageContaining("first");
        }
    }

    @Test
    void aLockFileThatIsNotARegularFileIsAnErrorNamingIt() throws IOException {
        Files.createDirectory(tmp.resolve(DirLock.FILE_NAME));
        assertThatThrownBy(() -> DirLock.acquire(tmp, "x", SHORT)).isInstanceOf(IOException.class)
                .hasMessage(tmp.toRealPath().resolve(DirLock.FILE_NAME) + " is not a regular file: it is jpto's lock "
                        + "file for " + tmp + "; remove it");
    }

    @Test
    void aLockHeldByAnotherProcessIsSeenAndNamed() throws Exception {
        // python's fcntl.lockf takes the same POSIX record lock as FileChannel.tryLock on Linux
        assumeTrue(hasPython(), "python3 is not installed");
        Path file = tmp.resolve(DirLock.FILE_NAME);
        String script = "import fcntl, os, sys\n"
                + "f = open(sys.argv[1], 'w')\n"
                + "fcntl.lockf(f, fcntl.LOCK_EX)\n"
                + "f.write(str(os.getpid()) + ' jpto run from another process\\n'); f.flush()\n"
                + "print('locked', flush=True)\n"
                + "sys.stdin.read()\n";
        Process p = new ProcessBuilder("python3", "-c", script, file.toString()).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(r.readLine()).isEqualTo("locked");
            assertThatThrownBy(() -> DirLock.acquire(tmp, "jpto compile", SHORT))
                    .isInstanceOf(DirInUseException.class)
                    .hasMessageContaining("(pid " + p.pid() + ": jpto run from another process)");
            p.getOutputStream().close(); // the holder exits; the OS releases its lock
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            try (DirLock got = DirLock.acquire(tmp, "jpto compile", Duration.ofSeconds(10))) {
                assertThat(Files.readString(file)).isEqualTo(PID + " jpto compile\n");
            }
        } finally {
            p.destroyForcibly();
        }
    }

    private static boolean hasPython() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import fcntl").redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
