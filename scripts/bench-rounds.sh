#!/usr/bin/env bash
# The exported path measured (issue 34, BENCHMARKS.md "Exported splits in
# rounds"): a domination count split with a job budget, its rounds run by
# each engine, against the same count in one process with --cube-budget.
#
#   scripts/bench-rounds.sh N K [ENGINE...]       (engines: parallel slurm local inprocess;
#                                                  default: parallel slurm inprocess)
#
# An engine written ENGINE+lex (local+lex, slurm+lex, …) runs the split
# written with `cubes --lex-leader` (each cube file with the lex-leader
# constraints under its stabilizer, BENCHMARKS.md "Lex-leader constraints
# in exported cubes"), so `local local+lex` compares the two in one run.
#
# Environment: DEPTH (2), BUDGET (job budget, 60 s), MAX_DEPTH (none),
# CUBE_BUDGET (in-process, 30 s), PROOF=1 (prove and verify), OUT (a new
# directory under /tmp), BOARDSAT_BIN (target/release/boardsat).
#
# For every engine, one line: wall seconds of the whole run (all rounds),
# the CPU seconds of its jobs (user + system, each job timed by
# /usr/bin/time through BOARDSAT, so Slurm's tasks count too), the CPU
# efficiency CPU / (wall x cores), the longest job's wall seconds, the
# number of rounds and of jobs, and the count; in one process, wall, CPU
# and efficiency of the `count` itself. Run it on an otherwise idle
# machine: the efficiency counts only the jobs' CPU. The occupancy, the
# jobs' wall seconds summed over (wall x cores), is how full the engine
# kept the cores with jobs, whatever else the machine ran meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:?usage: $0 N K [ENGINE...]}
k=${2:?usage: $0 N K [ENGINE...]}
shift 2
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(parallel slurm inprocess)
depth=${DEPTH:-2}
budget=${BUDGET:-60}
cube_budget=${CUBE_BUDGET:-30}
bin=$(realpath "${BOARDSAT_BIN:-target/release/boardsat}")
out=${OUT:-$(mktemp -d /tmp/bench-rounds.XXXXXX)}
cores=$(nproc)
mkdir -p "$out"
[ -x "$bin" ] || { echo "no $bin: cargo build --release" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

# Each job, timed: its wall, user and system seconds in cpu/<id>.<pid>.
wrapper=$out/timed-boardsat.sh
cat >"$wrapper" <<EOF
#!/bin/sh
exec /usr/bin/time -f '%e %U %S' -o "$out/cpu/\$3.\$\$" "$bin" "\$@"
EOF
chmod +x "$wrapper"

proof=()
inproof=()
if [ "${PROOF:-0}" = 1 ]; then
  proof=(--proof)
  inproof=(--proof "$out/inprocess-proof")
fi
max_depth=()
[ -n "${MAX_DEPTH:-}" ] && max_depth=(--max-depth "$MAX_DEPTH")

printf '%s\n' "machine: $cores cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $("$bin" --version)"
for engine in "${engines[@]}"; do
  if [ "$engine" = inprocess ]; then
    log=$out/inprocess.time
    /usr/bin/time -f '%e %U %S' -o "$log" "$bin" count domination "$n" -k "$k" \
      --cube-budget "$cube_budget" --json ${inproof[@]+"${inproof[@]}"} \
      >"$out/inprocess.json" 2>"$out/inprocess.err"
    read -r wall user sys <"$log"
    count=$(jq -r .count "$out/inprocess.json")
    awk -v e=inprocess -v w="$wall" -v u="$user" -v s="$sys" -v c="$cores" -v n="$count" 'BEGIN {
      printf "%-10s wall %8.1f s  cpu %9.1f s  efficiency %5.1f %%  count %s\n", e, w, u + s, 100 * (u + s) / (w * c), n }'
    continue
  fi
  label=$engine
  lex=()
  if [ "${engine%+lex}" != "$engine" ]; then
    engine=${engine%+lex}
    lex=(--lex-leader)
  fi
  dir=$out/$label
  rm -rf "$out/cpu"
  mkdir -p "$out/cpu"
  "$bin" cubes domination "$n" -k "$k" --depth "$depth" --job-budget "$budget" \
    ${max_depth[@]+"${max_depth[@]}"} ${proof[@]+"${proof[@]}"} ${lex[@]+"${lex[@]}"} -o "$dir" 2>/dev/null
  start=$(date +%s.%N)
  BOARDSAT=$wrapper "$bin" jobs "$dir" --run "$engine" --json >"$out/$label.json" 2>"$out/$label.err"
  end=$(date +%s.%N)
  if [ "${PROOF:-0}" = 1 ]; then
    count=$("$bin" merge --verify "$dir" 2>/dev/null | tail -n 1)
  else
    count=$("$bin" merge "$dir" 2>/dev/null)
  fi
  rounds=$(jq '.driven | length' "$out/$label.json")
  jobs=$(jq .jobs "$out/$label.json")
  cat "$out"/cpu/* | awk -v e="$label" -v w="$(echo "$end - $start" | bc)" -v c="$cores" \
    -v r="$rounds" -v j="$jobs" -v n="$count" '
    { cpu += $2 + $3; busy += $1; if ($1 > longest) longest = $1 }
    END { printf "%-10s wall %8.1f s  cpu %9.1f s  efficiency %5.1f %%  occupancy %5.1f %%  longest job %6.1f s  rounds %d  jobs %d  count %s\n",
                 e, w, cpu, 100 * cpu / (w * c), 100 * busy / (w * c), longest, r, j, n }'
done
echo "(runs in $out)"
