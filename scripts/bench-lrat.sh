#!/usr/bin/env bash
# LRAT proof overhead and checking speed (issue 13), interleaved, medians of
# RUNS (default 3). For each formula: CaDiCaL without a proof, with a text
# LRAT proof (Cadical::trace_proof), with CaDiCaL's internal LRAT checker
# (check=1 checkproof=2, no file), and boardsat-lrat checking the proof.
#
#   scripts/bench-lrat.sh               # dom 10/4, 12/5, 13/6 and pigeonhole 9
#   RUNS=1 scripts/bench-lrat.sh php10  # one formula by name, one run
#
# Formulas are written to $WORK (default /tmp/boardsat-lrat-bench); proofs
# there too (pigeonhole 10's is 0.6 GB). The table goes to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORK=${WORK:-/tmp/boardsat-lrat-bench}
mkdir -p "$WORK"
cargo build --release --locked -q -p boardsat
cargo build --release --locked -q -p boardsat-solve --example prove
cargo build --release --locked -q -p boardsat-lrat --example check
bin=target/release
prove=$bin/examples/prove
check=$bin/examples/check

pigeonhole() { # n: n+1 pigeons, n holes
    python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1]); v = lambda i, j: i * n + j + 1
cl = [[v(i, j) for j in range(n)] for i in range(n + 1)]
cl += [[-v(a, j), -v(b, j)] for j in range(n) for a in range(n + 1) for b in range(a + 1, n + 1)]
print(f"p cnf {(n + 1) * n} {len(cl)}")
for c in cl: print(" ".join(map(str, c)), 0)
PY
}

formulas=("$@")
[ ${#formulas[@]} -gt 0 ] || formulas=(dom10k4 dom12k5 dom13k6 php9)
for f in "${formulas[@]}"; do
    cnf=$WORK/$f.cnf
    case $f in
        dom*k*) n=${f#dom}; k=${n#*k}; n=${n%k*}
                $bin/boardsat dimacs domination "$n" -k "$k" -o "$cnf" >/dev/null 2>&1 ;;
        php*) pigeonhole "${f#php}" >"$cnf" ;;
        *) echo "unknown formula $f (domNkK or phpN)" >&2; exit 2 ;;
    esac
done

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { sed -n 's/.* in \([0-9.]*\) s.*/\1/p' | head -1; }

echo "| formula | solve, no proof (s) | solve + LRAT file (s) | proof (MB) | solve + CaDiCaL's LRAT check (s) | boardsat-lrat check (s) | steps | steps/s | MB/s |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "${formulas[@]}"; do
    cnf=$WORK/$f.cnf; proof=$WORK/$f.lrat
    : >"$WORK/$f.plain"; : >"$WORK/$f.traced"; : >"$WORK/$f.internal"; : >"$WORK/$f.check"
    for _ in $(seq "$RUNS"); do
        $prove "$cnf" - | seconds >>"$WORK/$f.plain"
        $prove "$cnf" "$proof" | seconds >>"$WORK/$f.traced"
        $prove "$cnf" - check=1 checkproof=2 | seconds >>"$WORK/$f.internal"
        out=$($check "$cnf" "$proof")
        echo "$out" | grep -q '^verified' || { echo "$f: $out" >&2; exit 1; }
        echo "$out" | sed -n 's/.*checked in \([0-9.]*\) s.*/\1/p' >>"$WORK/$f.check"
    done
    steps=$(echo "$out" | grep -o ' n_steps: [0-9]*' | grep -o '[0-9]*$')
    bytes=$(stat -c %s "$proof")
    c=$(median <"$WORK/$f.check")
    printf '| %s | %s | %s | %.1f | %s | %s | %s | %.0f | %.1f |\n' "$f" \
        "$(median <"$WORK/$f.plain")" "$(median <"$WORK/$f.traced")" \
        "$(echo "$bytes / 1000000" | bc -l)" "$(median <"$WORK/$f.internal")" "$c" \
        "$steps" "$(echo "$steps / $c" | bc -l)" "$(echo "$bytes / 1000000 / $c" | bc -l)"
done
