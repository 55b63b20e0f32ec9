#!/usr/bin/env bash
# What running a program from its source file costs over running it from the registry, in one run:
# the same program (basic.vector_add at tiny, registered again under another name by a one-class source file)
# run N times each way: from the registry, from the source with an empty class cache (compile), and cached.
# Prints each median wall time and the extra seconds against the registry's median.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=${1:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/jpto-source-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/Again.java" <<'JAVA'
import dev.jpto.models.basic.VectorAdd;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;

public final class Again implements ProgramProvider {
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>("again.vector_add", "basic.vector_add again", List.of("tiny"), n -> n,
                "tiny", n -> {
                    ProgramSpec s = VectorAdd.def().spec(n);
                    return new ProgramSpec("again.vector_add", n, s.body(), s.inputs(), s.golden(), s.comparators(),
                            s.runtimeCfg(), s.outputFills());
                }));
    }
}
JAVA
"$root/jpto" list >/dev/null 2>&1   # build first, outside the timings

wall() { # prints the wall seconds of one jpto invocation
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo "scale=3; ($end - $start) / 1000000000" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

registry=() compiled=() cached=()
for ((i = 0; i < runs; i++)); do
    registry+=("$(wall "$root/jpto" run basic.vector_add --preset tiny)")
    compiled+=("$(JPTO_CACHE_DIR="$work/cache-$i" wall "$root/jpto" run "$work/Again.java")")
    cached+=("$(JPTO_CACHE_DIR="$work/cache-$i" wall "$root/jpto" run "$work/Again.java")")
done
r=$(printf '%s\n' "${registry[@]}" | median)
c=$(printf '%s\n' "${compiled[@]}" | median)
k=$(printf '%s\n' "${cached[@]}" | median)
echo "runs=$runs  basic.vector_add tiny, wall seconds (median)"
echo "registry              $r"
printf 'source, first run     %s   (%+.3f s: compile)\n' "$c" "$(echo "$c - $r" | bc)"
printf 'source, cached        %s   (%+.3f s; target < 0.3 s)\n' "$k" "$(echo "$k - $r" | bc)"
