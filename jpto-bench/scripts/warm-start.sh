#!/usr/bin/env bash
# What the launcher's AOT start-up cache buys, in one run: `jpto run basic.matmul --preset tiny` N times with the
# cache and N times without (JPTO_AOT=0), alternating so both see the same load. Prints the median wall and CPU
# (user + sys) seconds of each and their ratios; CPU time is the steadier figure on a loaded machine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=${1:-5}
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(run basic.matmul --preset tiny)
out=$(mktemp "${TMPDIR:-/tmp}/jpto-warm-start.XXXXXX")
trap 'rm -f "$out"' EXIT
"$root/jpto" --version >/dev/null 2>&1   # build and make the cache first, outside the timings

one() { # prints "wall cpu" seconds of one jpto invocation
    /usr/bin/time -o "$out" -f '%e %U %S' "$@" >/dev/null 2>&1
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$out"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

with=() without=()
for ((i = 0; i < runs; i++)); do
    with+=("$(one "$root/jpto" "${args[@]}")")
    without+=("$(JPTO_AOT=0 one "$root/jpto" "${args[@]}")")
done
col() { printf '%s\n' "${@:2}" | cut -d' ' -f"$1" | median; }
ww=$(col 1 "${with[@]}") wc=$(col 2 "${with[@]}") nw=$(col 1 "${without[@]}") nc=$(col 2 "${without[@]}")
echo "runs=$runs  jpto ${args[*]}  (median seconds; load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "                 wall     cpu"
echo "without cache  $nw  $nc"
echo "with cache     $ww  $wc"
printf 'ratio          %.2f     %.2f   (with / without)\n' "$(echo "$ww / $nw" | bc -l)" "$(echo "$wc / $nc" | bc -l)"
