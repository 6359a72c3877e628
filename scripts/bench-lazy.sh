#!/usr/bin/env bash
# First N-queens solutions: boardsat with eager AMO clauses (auto), boardsat
# with the lazy AMO (lines propagated inside CaDiCaL, the default), and
# OR-Tools' CP solver with first fail and centre values (the peer of
# scripts/peers/compare.py), and on request the floor under any mode with one
# CaDiCaL variable per square (CaDiCaL loading only the rows' and columns'
# at-least-one clauses: crates/solve/examples/alo_floor.rs), interleaved, each run its own process under
# /usr/bin/time: wall seconds, CPU seconds (user + system) and peak resident
# memory; for the CP solver also its own clock, as compare.py reports it.
# The issue-14 table in BENCHMARKS.md comes from this script.
#
#   scripts/bench-lazy.sh                          # n = 100 500 1000 2000 5000, 3 runs
#   scripts/bench-lazy.sh --sizes "1000 2000" --runs 5 --limit 120
#   scripts/bench-lazy.sh --sizes 10000 --runs 1 --force   # lazy 10000 needs about 18 GB
#   scripts/bench-lazy.sh --sizes "1000 2000" --tools "lazy cp"   # leave a tool out
#   scripts/bench-lazy.sh --sizes "1000 5000" --tools "floor lazy cp"  # with the floor
#
# An encoding the size check refuses (the eager AMO from n = 2000, the lazy
# one at 10000 without --force) is reported as refused with boardsat's
# estimate, not run. Needs scripts/.venv with ortools (bench-peers.sh makes
# it) and the release binary (built unless BOARDSAT points at one).
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="100 500 1000 2000 5000"
tools="eager lazy cp"
runs=3
limit=300
force=()
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --limit) limit="$2"; shift 2 ;;
        --force) force=(--force); shift ;;
        --tools) tools="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

venv=scripts/.venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ortools' 2>/dev/null; then
    echo "scripts/.venv with ortools is missing: run scripts/bench-peers.sh --quick once" >&2
    exit 2
fi
if [ -z "${BOARDSAT:-}" ]; then
    cargo build --release -p boardsat >&2
    BOARDSAT="${CARGO_TARGET_DIR:-target}/release/boardsat"
fi
floor="${CARGO_TARGET_DIR:-target}/release/examples/alo_floor"
if [[ " $tools " == *" floor "* ]]; then
    cargo build --release -p boardsat-solve --example alo_floor >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: prints "wall cpu rss_mb status".
measure() {
    local status=ok
    if ! /usr/bin/time -o "$tmp/time" -f "%e %U %S %M" timeout "$limit" "$@" \
        > "$tmp/out" 2> "$tmp/err"; then
        status=failed
        grep -q "above the limit" "$tmp/err" && status=refused
        [ "$(tail -c 200 "$tmp/time" | grep -c "status 124")" = 1 ] && status=timeout
    fi
    local t
    t=$(tail -n 1 "$tmp/time")
    awk -v s="$status" '{ printf "%.2f %.2f %.0f %s\n", $1, $2 + $3, $4 / 1024, s }' <<< "$t"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

echo "| n | tool | wall s (median) | cpu s | peak MB | runs | note |"
echo "|---:|---|---:|---:|---:|---:|---|"
for n in $sizes; do
    declare -A wall=() cpu=() rss=() note=()
    for tool in floor eager lazy cp; do wall[$tool]=""; cpu[$tool]=""; rss[$tool]=""; note[$tool]=""; done
    own=
    for ((run = 1; run <= runs; run++)); do
        for tool in $tools; do
            [ -n "${note[$tool]}" ] && continue
            echo "[n=$n run $run/$runs] $tool" >&2
            case $tool in
                floor) line=$(measure "$floor" "$n") ;;
                eager) line=$(measure "$BOARDSAT" solve queens "$n" --amo auto --json) ;;
                lazy) line=$(measure "$BOARDSAT" solve queens "$n" --amo lazy --json "${force[@]}") ;;
                cp) line=$(measure "$venv/bin/python" scripts/peers/compare.py worker cp first "$n" "$limit") ;;
            esac
            read -r w c m s <<< "$line"
            if [ "$s" = ok ]; then
                wall[$tool]+="$w "; cpu[$tool]+="$c "; rss[$tool]+="$m "
                if [ "$tool" = cp ]; then
                    own+="$("$venv/bin/python" -c 'import json, sys; print(round(json.load(sys.stdin)["seconds"], 2))' < "$tmp/out") "
                fi
            elif [ "$s" = refused ]; then
                note[$tool]="refused: $(sed -e 's/.*would have //' -e 's/, above the limit.*//' "$tmp/err")"
            else
                note[$tool]="$s after $w s"
            fi
        done
    done
    if [ -n "$own" ]; then
        note[cp]="own clock (model built, interpreter start not counted): $(tr ' ' '\n' <<< "$own" | grep . | median) s"
    fi
    for tool in $tools; do
        count=$(wc -w <<< "${wall[$tool]}")
        printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$n" "$tool" \
            "$(tr ' ' '\n' <<< "${wall[$tool]}" | grep . | median)" \
            "$(tr ' ' '\n' <<< "${cpu[$tool]}" | grep . | median)" \
            "$(tr ' ' '\n' <<< "${rss[$tool]}" | grep . | median)" \
            "$count" "${note[$tool]}"
    done
done
echo
echo "- $(uname -srm), $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "- boardsat commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$venv/bin/python" -c 'import ortools; print("ortools", ortools.__version__)')"
