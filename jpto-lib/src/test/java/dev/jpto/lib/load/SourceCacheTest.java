package dev.jpto.lib.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compiled-source cache's pruning: the most recent entries stay, and an entry being written is never removed. */
class SourceCacheTest {
    @TempDir
    Path tmp;

    @Test
    void theCacheKeepsTheMostRecentlyUsedEntriesAndNeverOneInProgress() throws IOException {
        Path cache = tmp.resolve("cache");
        for (int i = 0; i < 5; i++) {
            Path e = Files.createDirectories(cache.resolve("entry" + i));
            Files.writeString(e.resolve(SourceCompiler.COMPLETE), "x");
            Files.setLastModifiedTime(e, java.nio.file.attribute.FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        Path compiling = Files.createDirectories(cache.resolve("compiling-123"));
        SourceCompiler.prune(cache, cache.resolve("entry0"), 3);
        try (Stream<Path> left = Files.list(cache)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("entry0", "entry4", "entry3", "compiling-123");
        }
        assertThat(compiling).isDirectory();
    }
}
