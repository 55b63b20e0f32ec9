package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every file jpto writes goes through {@code AtomicFile}: across all main sources (tests run with the module dir as
 * cwd), each call that opens a file for writing writes the temporary file {@code AtomicFile} hands over, which
 * its callers name {@code tmp}. A call that writes any other path would truncate a good file in place.
 */
class AtomicWritesTest {
    private static final Pattern OPEN_FOR_WRITING = Pattern.compile(
            "\\b(?:Files\\.(?:write|writeString|newOutputStream|newBufferedWriter)|createGenerator|new "
                    + "(?:FileOutputStream|FileWriter|RandomAccessFile)|FileChannel\\.open)\\(\\s*([\\w.()]+)");
    /**
     * The one file written in place, and why: a lock file must stay one inode for its whole life (a rename would
     * give a waiting process a file nobody else locks). It holds no data anyone reads as output.
     */
    private static final String LOCK_FILE_WRITER = "jpto-runtime/src/main/java/dev/jpto/runtime/io/DirLock.java";

    record Site(Path file, int line, String firstArgument) {
    }

    @Test
    void everyWriteOpensTheTemporaryFileOfAnAtomicWrite() throws IOException {
        List<Site> all = sites(Path.of("..").toAbsolutePath().normalize());
        assertThat(all).as("the lock file's in-place write")
                .anyMatch(s -> s.file().toString().equals(LOCK_FILE_WRITER));
        List<Site> sites = all.stream().filter(s -> !s.file().toString().equals(LOCK_FILE_WRITER)).toList();
        // the writers of .npy outputs (lib and runtime), JSON DFX files, and AtomicFile's own text writer
        assertThat(sites).as("write sites found").hasSizeGreaterThanOrEqualTo(4);
        assertThat(sites).as("calls that open something other than AtomicFile's temporary file for writing")
                .allSatisfy(s -> assertThat(s.firstArgument()).as(s.file() + ":" + s.line()).startsWith("tmp"));
    }

    @Test
    void theScanFindsAWriteInPlace() {
        assertThat(matches("Files.writeString(file, text);")).containsExactly("file");
        assertThat(matches("FileChannel.open(target, StandardOpenOption.WRITE)")).containsExactly("target");
        assertThat(matches("TensorFiles.write(dir, outs); FileChannel.open(f, StandardOpenOption.READ)")).isEmpty();
    }

    private static List<String> matches(String line) {
        List<String> args = new ArrayList<>();
        if (line.contains("FileChannel.open") && !line.contains("WRITE")) {
            return args; // a read
        }
        Matcher m = OPEN_FOR_WRITING.matcher(line);
        while (m.find()) {
            args.add(m.group(1));
        }
        return args;
    }

    private static List<Site> sites(Path root) throws IOException {
        List<Site> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    for (String arg : matches(lines.get(i))) {
                        out.add(new Site(root.relativize(f), i + 1, arg));
                    }
                }
            }
        }
        return out;
    }
}
