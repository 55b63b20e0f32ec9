#!/usr/bin/env bash
# A 36-case sweep of tiny cases three ways, in one run on this host:
#   1. one `jpto run` after another (a JVM per case: what a shell loop does),
#   2. `jpto sweep` on its embedded member, one case at a time (--max-parallel 1),
#   3. `jpto sweep --join` on one `jpto worker --slots 1` started beforehand (the cluster path).
# Prints each wall time, the ratio against the sequential runs, and the per-case overhead of each sweep: its wall
# time less the time the cases themselves report (stage_millis), divided by the case count.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/jpto-sweep-overhead.XXXXXX")
worker_pid=""
cleanup() {
    if [ -n "$worker_pid" ]; then kill "$worker_pid" 2>/dev/null || true; wait "$worker_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
programs=(basic.vector_add basic.matmul basic.softmax)
heaps=(64MiB 128MiB)
seeds=(0 1 2 3 4 5)
cat > "$work/sweep.yaml" <<YAML
programs: [$(IFS=,; echo "${programs[*]}")]
presets: [tiny]
runtime_cfg:
  ring_heap: [$(IFS=,; echo "${heaps[*]}")]
seeds: [$(IFS=,; echo "${seeds[*]}")]
YAML
"$root/jpto" list >/dev/null 2>&1   # build first, outside the timings
now() { date +%s%N; }
secs() { echo "scale=2; ($2 - $1) / 1000000000" | bc; }
# the seconds the cases of a results.jsonl report themselves (sum of stage_millis)
case_secs() {
    python3 -c 'import json,sys; print("%.2f" % (sum(sum(json.loads(l)["stage_millis"].values())
        for l in open(sys.argv[1])) / 1000))' "$1"
}

start=$(now)
n=0
for p in "${programs[@]}"; do for h in "${heaps[@]}"; do for s in "${seeds[@]}"; do
    "$root/jpto" run "$p" --preset tiny --seed "$s" --runtime-cfg "ring_heap=$h" >/dev/null 2>&1
    n=$((n + 1))
done; done; done
sequential=$(secs "$start" "$(now)")

start=$(now)
"$root/jpto" sweep "$work/sweep.yaml" --out "$work/embedded" --max-parallel 1 >/dev/null 2>&1
embedded=$(secs "$start" "$(now)")

umask 077
openssl rand -hex 32 > "$work/secret" 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$root/jpto" worker --bind "127.0.0.1:$port" --slots 1 --secret-file "$work/secret" > "$work/worker.log" 2>&1 &
worker_pid=$!
for _ in $(seq 1 120); do grep -q '^\[WORKER\] jpto-' "$work/worker.log" && break; sleep 0.5; done
start=$(now)
"$root/jpto" sweep "$work/sweep.yaml" --out "$work/joined" --join "127.0.0.1:$port" \
    --secret-file "$work/secret" >/dev/null 2>&1
joined=$(secs "$start" "$(now)")

e_cases=$(case_secs "$work/embedded/results.jsonl")
j_cases=$(case_secs "$work/joined/results.jsonl")
echo "cases=$n  (${programs[*]}) x tiny x ring_heap {${heaps[*]}} x seeds {${seeds[*]}}; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %8s s\n' "sequential jpto run" "$sequential"
printf '%-34s %8s s  (%.2fx faster; cases report %s s; overhead %.3f s/case)\n' "jpto sweep (embedded, 1 at a time)" \
    "$embedded" "$(echo "$sequential / $embedded" | bc -l)" "$e_cases" "$(echo "($embedded - $e_cases) / $n" | bc -l)"
printf '%-34s %8s s  (%.2fx faster; cases report %s s; overhead %.3f s/case)\n' "jpto sweep --join (1 worker)" \
    "$joined" "$(echo "$sequential / $joined" | bc -l)" "$j_cases" "$(echo "($joined - $j_cases) / $n" | bc -l)"
