package dev.jpto.lib.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultRuntimeCfgTest {
    @Test
    void roundTripsEntriesSortedIncludingValuesWithSeparators(@TempDir Path dir) throws Exception {
        Map<String, String> cfg = Map.of("ring_heap", "1GiB", "aicpu_thread_num", "4",
                "ring_task_window", "0,0,1024,0");
        DefaultRuntimeCfg.write(dir, cfg);
        assertThat(DefaultRuntimeCfg.read(dir)).isEqualTo(cfg);
        assertThat(Files.readAllLines(dir.resolve(DefaultRuntimeCfg.FILE))).containsSubsequence(
                "aicpu_thread_num=4", "ring_heap=1GiB", "ring_task_window=0,0,1024,0");
    }

    @Test
    void noFileMeansNoDefaultsAndAnEmptyMapRemovesAStaleFile(@TempDir Path dir) {
        assertThat(DefaultRuntimeCfg.read(dir)).isEmpty();
        DefaultRuntimeCfg.write(dir, Map.of("ring_heap", "1GiB"));
        DefaultRuntimeCfg.write(dir, Map.of());
        assertThat(dir.resolve(DefaultRuntimeCfg.FILE)).doesNotExist();
        assertThat(DefaultRuntimeCfg.read(dir)).isEmpty();
    }

    @Test
    void aMalformedFileIsAnErrorNamingTheFileAndTheFix(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(DefaultRuntimeCfg.FILE), "ring_heap=\\u00zz\n");
        assertThatThrownBy(() -> DefaultRuntimeCfg.read(dir)).isInstanceOf(JitConfigException.class)
                .hasMessageContaining(DefaultRuntimeCfg.FILE).hasMessageContaining("recompile the work dir");
    }
}
