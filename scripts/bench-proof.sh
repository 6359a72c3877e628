#!/usr/bin/env bash
# End-to-end overhead of `--proof DIR` (issue 13): each command without a
# proof, with `--proof DIR`, then `boardsat verify DIR`; interleaved,
# medians of RUNS (default 3). Prints a markdown table: wall times, the
# proof's size on disk, claims, and the overhead ratio.
#
#   scripts/bench-proof.sh                                   # the issue's commands
#   RUNS=1 scripts/bench-proof.sh "solve domination 13"      # one command
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORK=$(mktemp -d /tmp/boardsat-proof-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cargo build --release --locked -q -p boardsat
bin=target/release/boardsat
commands=("$@")
[ ${#commands[@]} -gt 0 ] || commands=("solve domination 12" "count domination 10")

wall() { # seconds of wall time of "$@" (stdout discarded)
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "%.2f", m}'; }

echo "| command | without proof (s) | with --proof (s) | overhead | proof (MB) | claims | verify (s) |"
echo "|---|---|---|---|---|---|---|"
for c in "${commands[@]}"; do
    read -r -a words <<< "$c"
    plain=(); proved=(); checked=(); size=0; claims=0
    for r in $(seq "$RUNS"); do
        plain+=("$(wall "$bin" "${words[@]}")")
        dir=$WORK/run$r
        proved+=("$(wall "$bin" "${words[@]}" --proof "$dir")")
        checked+=("$(wall "$bin" verify "$dir")")
        size=$(du -sm "$dir" | cut -f1)
        claims=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['claims']))" "$dir/MANIFEST.json")
        rm -rf "$dir"
    done
    p=$(median "${plain[@]}"); q=$(median "${proved[@]}"); v=$(median "${checked[@]}")
    echo "| \`boardsat $c\` | $p | $q | $(echo "$q / $p" | bc -l | xargs printf '%.2f×') | $size | $claims | $v |"
done
