package dev.jpto.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.Platform;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random valid configs: the string form round-trips, and the ring entries reach the CallConfig unchanged. */
class RunConfigPropertiesTest {
    @Provide
    Arbitrary<RingSize> windows() {
        Arbitrary<Long> pow2 = Arbitraries.integers().between(2, 20).map(e -> 1L << e);
        Arbitrary<Long> entry = Arbitraries.oneOf(pow2, Arbitraries.just(0L));
        return Arbitraries.oneOf(Arbitraries.just(RingSize.absent()), pow2.map(RingSize::of),
                Combinators.combine(entry, entry, entry, entry).as(RingSize::of));
    }

    @Provide
    Arbitrary<RingSize> heaps() {
        Arbitrary<Long> bytes = Arbitraries.longs().between(1024, 1L << 34);
        Arbitrary<Long> entry = Arbitraries.oneOf(bytes, Arbitraries.just(0L));
        return Arbitraries.oneOf(Arbitraries.just(RingSize.absent()), bytes.map(RingSize::of),
                Combinators.combine(entry, entry, entry, entry).as(RingSize::of));
    }

    @Provide
    Arbitrary<RingSize> pools() {
        Arbitrary<Long> n = Arbitraries.longs().between(4, Integer.MAX_VALUE);
        Arbitrary<Long> entry = Arbitraries.oneOf(n, Arbitraries.just(0L));
        return Arbitraries.oneOf(Arbitraries.just(RingSize.absent()), n.map(RingSize::of),
                Combinators.combine(entry, entry, entry, entry).as(RingSize::of));
    }

    @Property(tries = 300, seed = "7")
    void stringFormRoundTripsAndRingsReachTheCallConfig(@ForAll("windows") RingSize window,
            @ForAll("heaps") RingSize heap, @ForAll("pools") RingSize pool,
            @ForAll Platform platform, @ForAll boolean scopeStats) {
        RunConfig c = RunConfig.defaults().withPlatform(platform).withRingTaskWindow(window).withRingHeap(heap)
                .withRingDepPool(pool).withEnableScopeStats(scopeStats)
                .withOutputPrefix(scopeStats ? "/tmp/p" : "");
        Map<String, String> text = c.asMap();
        assertThat(RunConfig.fromMap(text)).isEqualTo(c);
        CallConfig call = CallConfigs.from(c);
        assertThat(call.runtimeEnv().ringTaskWindow()).containsExactly(window.entries());
        assertThat(call.runtimeEnv().ringHeap()).containsExactly(heap.entries());
        assertThat(call.runtimeEnv().ringDepPool()).containsExactly(pool.entries());
        assertThat(call.enableScopeStats()).isEqualTo(scopeStats);
    }
}
