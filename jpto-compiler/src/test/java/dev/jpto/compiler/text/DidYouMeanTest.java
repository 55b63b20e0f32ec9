package dev.jpto.compiler.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The "did you mean" rule: typos are matched, different words are not. */
class DidYouMeanTest {
    private static final List<String> KEYS = List.of("ring_heap", "ring_task_window", "ring_dep_pool", "platform");

    @Test
    void distanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        assertThat(DidYouMean.distance("ring_hep", "ring_heap")).isEqualTo(1); // insertion
        assertThat(DidYouMean.distance("ring_heapp", "ring_heap")).isEqualTo(1); // deletion
        assertThat(DidYouMean.distance("ring_heep", "ring_heap")).isEqualTo(1); // substitution
        assertThat(DidYouMean.distance("rnig_heap", "ring_heap")).isEqualTo(1); // swap of neighbours
        assertThat(DidYouMean.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(DidYouMean.distance("", "abc")).isEqualTo(3);
    }

    @Test
    void aTypoGetsTheNearestNames() {
        assertThat(DidYouMean.suggestions("ring_hep", KEYS)).containsExactly("ring_heap");
        assertThat(DidYouMean.suggestions("RING_HEAP", KEYS)).containsExactly("ring_heap");
        assertThat(DidYouMean.hint("platfrom", KEYS)).isEqualTo("; did you mean 'platform'?");
    }

    @Test
    void theLastPartOfADottedNameIsEnough() {
        assertThat(DidYouMean.suggestions("matmul", List.of("basic.matmul", "basic.softmax")))
                .containsExactly("basic.matmul");
    }

    @Test
    void aDifferentWordGetsNoSuggestion() {
        assertThat(DidYouMean.suggestions("nope", KEYS)).isEmpty();
        assertThat(DidYouMean.hint("threads", KEYS)).isEmpty();
        // a short name allows one edit only: "ab" is not a typo of "xy"
        assertThat(DidYouMean.suggestions("ab", List.of("xy", "ac"))).containsExactly("ac");
    }
}
