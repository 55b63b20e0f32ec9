package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What crosses the cluster survives Compact serialization field by field, through a real member's IMap. */
@Timeout(120)
class CompactSerializersTest {
    @Test
    void aResultAndACaseComeBackEqualFromTheMembersBinaryStore() {
        HazelcastInstance member = SweepMember.embedded(1, name -> new CaseRunner(new ProgramRefs(Map.of()), name,
                CaseRunner.share(1)));
        try {
            CaseResult result = new CaseResult("ab12", "basic.matmul", "tiny", Map.of("ring_heap", "1024"),
                    "a2a3sim", 7, "HEAP_RING_DEADLOCK", "ERROR", 3, "HEAP_RING_DEADLOCK", "orch_error_code=2 …",
                    List.of("'c' PASS shape=[128, 128]"), Map.of("compile", 12L, "runtime", 40L), 123.5, 41.25,
                    List.of(131072L, 0L), List.of(1024L, 1024L), "jpto-1");
            IMap<String, CaseResult> results = member.getMap("compact-test");
            results.set("ab12", result); // an IMap keeps values serialized: get() reads them back
            assertThat(results.get("ab12")).isEqualTo(result).isNotSameAs(result);

            SweepCase c = new SweepCase("basic.matmul", "basic.matmul", "tiny", Map.of("ring_heap", "1024",
                    "aicpu_thread_num", "2"), "a5sim", 3, 2, "PASS");
            IMap<String, CaseTask> tasks = member.getMap("compact-test-tasks");
            tasks.set(c.id(), new CaseTask(c, "jpto-results-test"));
            assertThat(tasks.get(c.id()).sweepCase()).isEqualTo(c);
            assertThat(tasks.get(c.id()).sweepCase().id()).isEqualTo(c.id());
            assertThat(tasks.get(c.id()).resultsMap()).isEqualTo("jpto-results-test");
        } finally {
            member.shutdown();
        }
    }
}
