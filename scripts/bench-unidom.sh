#!/usr/bin/env bash
# boardsat's count of minimum dominating sets of queens against Unidom
# (Bill Bird's domination solver, the dedicated peer of issue 52's dense
# regime), on this machine, interleaved, medians of RUNS: CPU seconds
# (user + system, all threads) and the ratio boardsat / Unidom.
#
#   UNIDOM_SRC=DIR scripts/bench-unidom.sh 13 14     # N ... (default 12 13)
#
# Unidom is not part of boardsat and is never vendored: UNIDOM_SRC names a
# checkout of its public source (github.com/billbird/unidom), built here
# with make. Unidom is given the known optimum (`-S MDD_all -l G -u G`,
# its exhaustive generation with the max-dominator-degree bound); boardsat
# runs the user's command, `count domination N`, which proves the optimum
# itself first. Both counts must agree, or the row says so. RUNS (3) and
# BOARDSAT (the release binary, built unless set) override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${UNIDOM_SRC:-}" ] || [ ! -f "$UNIDOM_SRC/Makefile" ]; then
  echo "error: UNIDOM_SRC must name a checkout of github.com/billbird/unidom" >&2
  exit 2
fi
make -C "$UNIDOM_SRC" -s >&2
unidom=$UNIDOM_SRC/unidom
if [ -z "${BOARDSAT:-}" ]; then
  cargo build --release --locked -p boardsat >&2
  BOARDSAT="${CARGO_TARGET_DIR:-$PWD/target}/release/boardsat"
fi
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(12 13)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load at start $(cut -d' ' -f1 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), $(date -u +%Y-%m-%d); Unidom $(git -C "$UNIDOM_SRC" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)')"
echo
echo "| n | γ | sets | boardsat CPU s (runs) | Unidom CPU s (runs) | ratio (medians) |"
echo "|---:|---:|---:|---|---|---:|"

# CPU seconds (user + system) of "$@", its stdout in $work/out.
cpu() {
  /usr/bin/time -f "%U %S" -o "$work/time" "$@" > "$work/out" 2> "$work/err"
  awk '{printf "%.2f\n", $1 + $2}' "$work/time"
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

for n in "${sizes[@]}"; do
  gamma=$("$BOARDSAT" solve domination "$n" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')
  : > "$work/b"; : > "$work/u"
  sets=""; agree=yes
  for _ in $(seq "$runs"); do
    echo "== n = $n: boardsat" >&2
    cpu "$BOARDSAT" count domination "$n" >> "$work/b"
    ours=$(head -n 1 "$work/out")
    echo "== n = $n: Unidom" >&2
    cpu "$unidom" -I queen -n "$n" -S MDD_all -l "$gamma" -u "$gamma" >> "$work/u"
    theirs=$(grep -c -v -- '^-1$' "$work/out" || true)
    [ "$ours" = "$theirs" ] || agree="NO: boardsat $ours, Unidom $theirs"
    sets=$ours
  done
  b=$(median < "$work/b"); u=$(median < "$work/u")
  row="| $n | $gamma | $sets | $b ($(paste -sd/ "$work/b")) | $u ($(paste -sd/ "$work/u")) | $(awk -v a="$b" -v b="$u" 'BEGIN {printf "%.2f", a / b}') |"
  [ "$agree" = yes ] || row="$row counts disagree: $agree"
  echo "$row"
done
