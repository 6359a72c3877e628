#!/usr/bin/env bash
# Issue 23's check that Python takes the CLI's road: `boardsat.solve("queens",
# N)` against `boardsat solve queens N`, both as whole processes (wall time,
# peak RSS), medians of RUNS (3). Prints one markdown row per N with the
# machine, commit and load first. PYTHON is an interpreter with the boardsat
# package installed (default: python/.venv/bin/python, which
# scripts/test-python.sh builds); BOARDSAT the release binary (built unless set).
#
#   scripts/bench-python.sh            # N = 1000
#   SIZES="1000 2000" scripts/bench-python.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BOARDSAT:-}" ]; then
  cargo build --release --locked -p boardsat >&2
  BOARDSAT="${CARGO_TARGET_DIR:-$PWD/target}/release/boardsat"
fi
python=${PYTHON:-python/.venv/bin/python}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), $(date -u +%Y-%m-%d), load at start $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| n | \`boardsat solve queens n\`: wall s, peak MB | \`boardsat.solve(\"queens\", n)\`: wall s, peak MB | ratio (wall) | same encodings |"
echo "|---:|---|---|---:|---|"

# The median of the numbers on stdin.
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

for n in ${SIZES:-1000}; do
  for tool in cli python; do
    : > "$work/$tool.wall"; : > "$work/$tool.mb"
    for _ in $(seq "$runs"); do
      if [ "$tool" = cli ]; then
        /usr/bin/time -f "%e %M" -o "$work/time" "$BOARDSAT" solve queens "$n" --json > "$work/$tool.json" 2> /dev/null
      else
        /usr/bin/time -f "%e %M" -o "$work/time" "$python" -c \
          "import boardsat, json, sys; json.dump(boardsat.solve('queens', $n), sys.stdout)" > "$work/$tool.json"
      fi
      read -r wall kb < <(tail -n 1 "$work/time")
      echo "$wall" >> "$work/$tool.wall"; echo $((kb / 1024)) >> "$work/$tool.mb"
    done
  done
  same=$(python3 - "$work/cli.json" "$work/python.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
keys = ("status", "amo", "card", "formulation", "backend", "vars", "clauses")
print("yes" if all(a.get(k) == b.get(k) for k in keys) else "NO: " + ", ".join(f"{k} {a.get(k)} vs {b.get(k)}" for k in keys if a.get(k) != b.get(k)))
PY
)
  cw=$(median < "$work/cli.wall"); pw=$(median < "$work/python.wall")
  echo "| $n | $cw, $(median < "$work/cli.mb") | $pw, $(median < "$work/python.mb") | $(awk -v a="$pw" -v b="$cw" 'BEGIN {printf "%.2f", a / b}') | $same |"
done
