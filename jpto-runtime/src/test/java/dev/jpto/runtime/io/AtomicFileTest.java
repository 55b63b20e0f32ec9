package dev.jpto.runtime.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class AtomicFileTest {
    private static final byte[] OLD = "the previous good content\n".getBytes();

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Writes 4 KiB into the temporary file, then fails as the writer says: a partial write. */
    private static AtomicFile.Content failingAfterSomeBytes(Exception failure) {
        return tmp -> {
            try (OutputStream o = Files.newOutputStream(tmp)) {
                o.write(new byte[4096]);
            }
            assertThat(Files.size(tmp)).isEqualTo(4096);
            switch (failure) {
                case IOException e -> throw e;
                case RuntimeException e -> throw e;
                default -> throw new AssertionError(failure);
            }
        };
    }

    @Test
    void writeReplacesTheContentWholeAndLeavesOnlyTheTarget(@TempDir Path dir) throws IOException {
        Path target = Files.write(dir.resolve("out.npy"), OLD);
        assertThat(AtomicFile.writeString(target, "new")).isEqualTo(target);
        assertThat(Files.readString(target)).isEqualTo("new");
        assertThat(names(dir)).containsExactly("out.npy");
    }

    @Test
    void aDiskFullMidWayLeavesThePreviousFileByteForByteAndNoTemporaryFile(@TempDir Path dir) throws IOException {
        // ENOSPC, as FileChannel.write reports it, after part of the data went out
        Path target = Files.write(dir.resolve("out.npy"), OLD);
        IOException enospc = new IOException("No space left on device");
        assertThatThrownBy(() -> AtomicFile.write(target, failingAfterSomeBytes(enospc))).isSameAs(enospc);
        assertThat(Files.readAllBytes(target)).isEqualTo(OLD);
        assertThat(names(dir)).containsExactly("out.npy");
    }

    @Test
    void aWriterThatThrowsAnUncheckedExceptionOrAnErrorLeavesThePreviousFile(@TempDir Path dir) throws IOException {
        Path target = Files.write(dir.resolve("deps.json"), OLD);
        IllegalStateException bug = new IllegalStateException("Already closed");
        assertThatThrownBy(() -> AtomicFile.write(target, failingAfterSomeBytes(bug))).isSameAs(bug);
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        assertThatThrownBy(() -> AtomicFile.write(target, tmp -> {
            Files.writeString(tmp, "partial");
            throw oom;
        })).isSameAs(oom);
        assertThat(Files.readAllBytes(target)).isEqualTo(OLD);
        assertThat(names(dir)).containsExactly("deps.json");
    }

    @Test
    void aFailedFirstWriteLeavesNoFileAtAll(@TempDir Path dir) {
        Path target = dir.resolve("pmu.csv");
        assertThatThrownBy(() -> AtomicFile.write(target, failingAfterSomeBytes(new IOException("Input/output error"))))
                .hasMessage("Input/output error");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aRenameThatFailsLeavesTheTargetAndNoTemporaryFile(@TempDir Path dir) throws IOException {
        // a real failure at the commit step: the name is taken by a non-empty directory
        Path target = Files.createDirectory(dir.resolve("deps.dot"));
        Files.write(target.resolve("keep.txt"), OLD);
        assertThatThrownBy(() -> AtomicFile.writeString(target, "digraph {}")).isInstanceOf(IOException.class);
        assertThat(Files.readAllBytes(target.resolve("keep.txt"))).isEqualTo(OLD);
        assertThat(names(dir)).containsExactly("deps.dot");
    }

    @Test
    void aReadOnlyDirectoryIsAnErrorNamingTheDirectoryAndTheFileStaysAsItWas(@TempDir Path dir) throws IOException {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Path target = Files.write(ro.resolve("out.npy"), OLD);
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeFalse(Files.isWritable(ro), "permissions are not enforced for this user (root)");
            assertThatThrownBy(() -> AtomicFile.writeString(target, "new"))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining(ro.toString());
            assertThat(Files.readAllBytes(target)).isEqualTo(OLD);
            assertThat(names(ro)).containsExactly("out.npy");
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void theNewFileHasTheUsualPermissionsNotThoseOfATemporaryFile(@TempDir Path dir) throws IOException {
        // Files.createTempFile would make it owner-only (rw-------); an output must look like one written in place
        Set<PosixFilePermission> usual = Files.getPosixFilePermissions(Files.createFile(dir.resolve("plain")));
        Path target = AtomicFile.writeString(dir.resolve("out.csv"), "a,b\n");
        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(usual);
    }

    @Test
    void temporaryNamesAreHiddenSiblingsRecognisedByIsTempName() {
        String tmp = AtomicFile.tempName("chip_swimlane.json");
        assertThat(tmp).matches("\\.chip_swimlane\\.json\\.[0-9a-f]{16}\\.tmp");
        assertThat(AtomicFile.isTempName(tmp)).isTrue();
        assertThat(AtomicFile.tempName("x".repeat(255))).hasSizeLessThanOrEqualTo(255);
        assertThat(AtomicFile.isTempName("chip_swimlane.json")).isFalse();
        assertThat(AtomicFile.isTempName(".notes.tmp")).isFalse();
        assertThat(AtomicFile.isTempName(".a.0123456789abcdeg.tmp")).isFalse();
    }
}
