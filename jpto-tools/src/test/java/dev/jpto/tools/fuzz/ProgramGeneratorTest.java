package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Verifier;
import dev.jpto.compiler.run.RingSize;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.Platform;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the generator produces over 200 seeds: determinism, reach (depth, directions, overlaps) and validity. */
class ProgramGeneratorTest {
    private static final int SEEDS = 200;
    private static final List<FuzzCase> CASES = new ArrayList<>();
    private static final List<OrderingRules.Facts> FACTS = new ArrayList<>();

    @BeforeAll
    static void generate() {
        for (long s = 0; s < SEEDS; s++) {
            FuzzCase c = ProgramGenerator.generate(s);
            CASES.add(c);
            FACTS.add(OrderingRules.check(c.program()).facts());
        }
    }

    @Test
    void theSameSeedGivesTheSameProgramAndConfig() {
        for (long s : new long[] {0, 1, 17, -5, Long.MAX_VALUE}) {
            FuzzCase a = ProgramGenerator.generate(s);
            FuzzCase b = ProgramGenerator.generate(s);
            assertThat(b.program()).isEqualTo(a.program());
            assertThat(b.config()).isEqualTo(a.config());
            assertThat(b.describe()).isEqualTo(a.describe());
        }
        Set<String> distinct = new HashSet<>();
        for (FuzzCase c : CASES) {
            distinct.add(c.describe().replace(c.program().name(), ""));
        }
        assertThat(distinct).hasSizeGreaterThan(SEEDS * 9 / 10);
    }

    @Test
    void everyProgramVerifiesAndKeepsTheOrderingRules() {
        for (FuzzCase c : CASES) {
            assertThat(Verifier.check(c.program())).as(c.describe()).isEmpty();
            assertThat(OrderingRules.check(c.program()).violation()).as(c.describe()).isEmpty();
            assertThat(c.program().outputs()).isNotEmpty();
        }
    }

    @Test
    void scopesNestToDepthFiveAndLoopsNest() {
        assertThat(FACTS.stream().mapToInt(OrderingRules.Facts::maxScopeDepth).max().orElseThrow()).isEqualTo(5);
        assertThat(FACTS.stream().filter(f -> f.maxScopeDepth() >= 3).count()).isGreaterThan(SEEDS / 10);
        assertThat(FACTS.stream().mapToInt(OrderingRules.Facts::maxLoopDepth).max().orElseThrow()).isGreaterThanOrEqualTo(2);
        assertThat(FACTS.stream().mapToInt(OrderingRules.Facts::tasks).max().orElseThrow()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void everyDirectionIsProduced() {
        Set<Direction> seen = EnumSet.noneOf(Direction.class);
        FACTS.forEach(f -> seen.addAll(f.directions()));
        assertThat(seen).containsExactlyInAnyOrder(Direction.values());
        // and not only once in a while: most programs mix several
        assertThat(FACTS.stream().filter(f -> f.directions().size() >= 3).count()).isGreaterThan(SEEDS / 3);
    }

    @Test
    void viewsOfTheSameBufferOverlapAndAreReshaped() {
        assertThat(FACTS.stream().filter(f -> f.overlappingArgs() > 0).count()).isGreaterThan(SEEDS / 3);
        assertThat(FACTS.stream().filter(f -> f.reshapedArgs() > 0).count()).isGreaterThan(SEEDS / 5);
    }

    @Test
    void runConfigsCoverBothPlatformsThreadCountsAndTheRingMinimums() {
        Set<Platform> platforms = EnumSet.noneOf(Platform.class);
        Set<Integer> threads = new HashSet<>();
        Set<Long> windows = new HashSet<>();
        Set<Long> heaps = new HashSet<>();
        Set<Long> deps = new HashSet<>();
        boolean auto = false;
        for (FuzzCase c : CASES) {
            RunConfig cfg = c.config();
            platforms.add(cfg.platform());
            threads.add(cfg.aicpuThreadNum());
            auto |= cfg.ringHeap().isAuto() || cfg.ringTaskWindow().isAuto() || cfg.ringDepPool().isAuto();
            addEntries(windows, cfg.ringTaskWindow());
            addEntries(heaps, cfg.ringHeap());
            addEntries(deps, cfg.ringDepPool());
        }
        assertThat(platforms).containsExactlyInAnyOrder(Platform.A2A3SIM, Platform.A5SIM);
        assertThat(threads).contains(0, 2, 3, 4, 6);
        assertThat(windows).contains(4L);
        assertThat(heaps).contains(1024L);
        assertThat(deps).contains(4L);
        assertThat(auto).isTrue();
    }

    private static void addEntries(Set<Long> into, RingSize size) {
        if (!size.isAuto()) {
            for (long v : size.entries()) {
                into.add(v);
            }
        }
    }

    @Test
    void theConfigIsSharedByABlockOfSeedsAndDependsOnlyOnTheSeed() {
        long block = ProgramGenerator.CONFIG_BLOCK;
        assertThat(ProgramGenerator.generate(3 * block).config())
                .isEqualTo(ProgramGenerator.generate(3 * block + block - 1).config())
                .isEqualTo(ProgramGenerator.config(3 * block + 1));
    }
}
