#!/usr/bin/env bash
# Issue 24's targets, measured as a user runs them: certified domination
# counts and optima with their proofs verified, the A002564 frontier, and
# the estimates of the splits too large for this machine. Prints markdown
# rows on stdout (the machine, commit and date first), progress on stderr.
#
#   scripts/bench-frontier.sh proofs     # count 12, 13 and solve 15, with and without --proof, medians of 3
#   scripts/bench-frontier.sh frontier   # count domination 17, 18, 19 --proof (+ --unique from the JSON), verified, one run each
#   scripts/bench-frontier.sh estimate   # cubes domination 15 -k 9 and 16 -k 9 --estimate
#   scripts/bench-frontier.sh gamma15    # solve domination 15, medians of 3
#
# A count longer than one sitting: PROOFS=DIR keeps each count's proof as DIR/count-N, resumes one a stopped sitting
# left there (--resume) and verifies it once complete; FRONTIER_ARGS adds to each count's arguments. A002564(23),
# route 1, as it was run (each sitting to the limit, then again until the row says verified):
#
#   PROOFS=/data/runs N_FRONTIER=23 FRONTIER_ARGS="--depth 3 --cube-budget 30 --proof-format binary
#     --proof-compression zstd" FRONTIER_LIMIT=9000 scripts/bench-frontier.sh frontier
#
# KEEP (a directory for each count's JSON), PROOFS, FRONTIER_ARGS, RUNS (3), PROOF_CASES ("count domination 12;count domination 13;solve
# domination 15"), N_FRONTIER ("17 18 19"), FRONTIER_LIMIT (7200 s per count), ESTIMATE_CASES ("domination 15 -k 9
# --depth 2;domination 16 -k 9 --depth 2"), SAMPLE (20), CUBE_LIMIT (600), SEED (1) and BOARDSAT (the release binary,
# built unless set) override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BOARDSAT:-}" ]; then
  cargo build --release --locked -p boardsat >&2
  BOARDSAT="${CARGO_TARGET_DIR:-$PWD/target}/release/boardsat"
fi
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), $(date -u +%Y-%m-%d), load at start $(cut -d' ' -f1 /proc/loadavg)"
echo

# Runs "$@" once: prints "wall cpu peak_mb" and keeps stdout in $work/out.
timed() {
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || {
    echo "failed: $* ($(tail -n 1 "$work/err"))" >&2
    return 1
  }
  tail -n 1 "$work/time" | awk '{printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024}'
}

# As timed, for a command whose failure is reported in its output.
timed_anyway() {
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || true
  tail -n 1 "$work/time" | awk '{printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024}'
}

# The median of the numbers on stdin.
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# Medians of $runs runs of "$@": "wall cpu".
medians() {
  : > "$work/walls"; : > "$work/cpus"
  for _ in $(seq "$runs"); do
    read -r wall cpu _ < <(timed "$@")
    echo "$wall" >> "$work/walls"; echo "$cpu" >> "$work/cpus"
  done
  echo "$(median < "$work/walls") $(median < "$work/cpus")"
}

# A proof directory's size in MB and its verification: "mb verify_wall verdict".
verified() {
  local dir=$1 mb line
  mb=$(du -sm "$dir" | cut -f1)
  # verify exits 0 only when every claim and split verifies.
  if line=$(timed "$BOARDSAT" verify "$dir"); then
    echo "$mb ${line%% *} verified"
  else
    echo "$mb - REJECTED"
  fi
}

proofs() {
  echo "| command | without --proof: wall / CPU s | with --proof: wall / CPU s | ratio (wall) | proof MB | verify s | verdict |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  IFS=';' read -r -a cases <<< "${PROOF_CASES:-count domination 12;count domination 13;solve domination 15}"
  for args in "${cases[@]}"; do
    echo "== $args" >&2
    read -r w0 c0 < <(medians "$BOARDSAT" $args)
    : > "$work/walls"; : > "$work/cpus"
    for i in $(seq "$runs"); do
      rm -rf "$work/p$i"
      read -r wall cpu _ < <(timed "$BOARDSAT" $args --proof "$work/p$i")
      echo "$wall" >> "$work/walls"; echo "$cpu" >> "$work/cpus"
    done
    w1=$(median < "$work/walls"); c1=$(median < "$work/cpus")
    read -r mb vs verdict < <(verified "$work/p1")
    echo "| \`$args\` | $w0 / $c0 | $w1 / $c1 | $(awk -v a="$w1" -v b="$w0" 'BEGIN {printf "%.2f", a / b}') | $mb | $vs | $verdict |"
    rm -rf "$work"/p*
  done
}

frontier() {
  echo "| n | count | --unique | wall s | CPU s | peak MB | proof MB | verify s | verdict |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  for n in ${N_FRONTIER:-17 18 19}; do
    local dir="$work/f$n" resume=()
    if [ -n "${PROOFS:-}" ]; then
      mkdir -p "$PROOFS"
      dir="$PROOFS/count-$n"
      if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$dir/MANIFEST.json" 2> /dev/null)" = complete ]; then
        # Counted by an earlier sitting: verified again, not counted again.
        IFS=$'\t' read -r count unique < <(python3 - "$dir/MANIFEST.json" <<'EOF'
import json, sys
split = [s for s in json.load(open(sys.argv[1]))["splits"] if s["purpose"] == "count"][-1]
print(split["count"], split.get("fundamental"), sep="\t")
EOF
)
        read -r mb vs verdict < <(verified "$dir")
        echo "| $n | $count | $unique | - | - | - | $mb | $vs | $verdict (counted before) |"
        continue
      fi
      [ -f "$dir/MANIFEST.json" ] && resume=(--resume)
    else
      rm -rf "$dir"
    fi
    echo "== count domination $n ${FRONTIER_ARGS:-} --proof $dir ${resume[*]}" >&2
    # Past the limit the count is interrupted (SIGINT) and reports how far it got.
    # shellcheck disable=SC2086 # FRONTIER_ARGS is a list of arguments
    read -r wall cpu peak < <(timed_anyway timeout --foreground -s INT "${FRONTIER_LIMIT:-7200}" "$BOARDSAT" --progress count domination "$n" ${FRONTIER_ARGS:-} --proof "$dir" "${resume[@]}" --json)
    cp "$work/out" "${KEEP:-$work}/count-$n.json" 2> /dev/null || true
    IFS=$'\t' read -r complete count unique < <(python3 - "$work/out" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    d = {}
if d.get("complete"):
    print("yes", d["count"], d.get("fundamental"), sep="\t")
else:
    done = f"{d.get('cubes_done', 0)} of {d.get('cubes', '?')} cubes"
    print("no", f"at least {d.get('count', 0)} ({done}; stopped: {d.get('stopped')})", "-", sep="\t")
EOF
)
    if [ "$complete" = yes ]; then
      read -r mb vs verdict < <(verified "$dir")
    else
      # A stopped sitting proves nothing as a whole: not verified, resumed by the next.
      mb=$(du -sm "$dir" 2> /dev/null | cut -f1); vs=-; verdict="not complete"
    fi
    echo "| $n | $count | $unique | $wall | $cpu | $peak | ${mb:--} | $vs | $verdict |"
    [ -n "${PROOFS:-}" ] || rm -rf "$dir"
  done
}

estimate() {
  echo "| split | cubes | sampled | projected CPU s (95 % interval) | sampled cubes projected from a piece (pieces) | longest sampled cube s | estimate's wall s |"
  echo "|---|---:|---:|---|---|---|---:|"
  IFS=';' read -r -a cases <<< "${ESTIMATE_CASES:-domination 15 -k 9 --depth 2;domination 16 -k 9 --depth 2}"
  for args in "${cases[@]}"; do
    echo "== cubes $args --estimate ${SAMPLE:-20}" >&2
    read -r wall _ _ < <(timed "$BOARDSAT" cubes $args --estimate "${SAMPLE:-20}" --cube-limit "${CUBE_LIMIT:-600}" --seed "${SEED:-1}" --threads 2 --json)
    python3 - "$work/out" "$args" "$wall" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
lo, hi = d["interval"]
at_least = "at least " if d["lower_bound"] else ""
longest = d["longest"]
pieced = [s for s in d["sampled"] if s["pieces"] > 1]
pieces = ", ".join(str(s["pieces"]) for s in pieced)
print(f"| `cubes {sys.argv[2]}` | {d['cubes']} | {len(d['sampled'])} | {at_least}{d['projected_seconds']:.0f} ({lo:.0f} to {hi:.0f}) | {len(pieced)}{f' ({pieces})' if pieced else ''} | {longest['id']} {longest['seconds']:.1f}{'' if longest['complete'] else ' (limit)'} | {float(sys.argv[3]):.0f} |")
EOF
  done
}

gamma15() {
  echo "| command | wall s (median) | CPU s (median) |"
  echo "|---|---:|---:|"
  read -r w c < <(medians "$BOARDSAT" solve domination 15)
  echo "| \`solve domination 15\` | $w | $c |"
}

for what in "${@:-proofs}"; do
  "$what"
  echo
done
