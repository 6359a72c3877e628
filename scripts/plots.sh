#!/usr/bin/env bash
# Makes the figures of BENCHMARKS.md and the tables beside them:
# OUT/NAME.svg (`boardsat bench … --plot`) and OUT/NAME.md (the same cells
# as a markdown table, with the command, commit and machine). OUT is a
# directory outside the tree unless you name one, so a run never rewrites
# the committed figures by surprise; OUT=docs/figures replaces them.
#
#   scripts/plots.sh                 # every figure, medians of 3 runs, into /tmp/boardsat-figures
#   RUNS=1 OUT=figs scripts/plots.sh queens-clauses
#   OUT=docs/figures scripts/plots.sh   # the committed figures, regenerated
#
# Figures (all of them without arguments):
#   queens-clauses   N-queens encoding sizes per AMO encoding (lines formulation)
#   queens-count     N-queens count times per AMO encoding (CaDiCaL, one thread)
#   domination-gamma gamma(Q_n) with its proof, per cardinality encoding and
#                    formulation; "cardinality · mtotalizer" is the published
#                    encoding of Rostami and Bright 2025, up to details
#
# Builds the release binary unless BOARDSAT points at one. RUNS (default 3)
# and LIMIT (the cell time limit in seconds, default 60) can be set; OUT
# (default ${TMPDIR:-/tmp}/boardsat-figures) is where the files go. Every
# figure is a benchmark run, not timed here: with the defaults up to
# RUNS x LIMIT seconds per cell (the cells are listed below).
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-3}"
limit="${LIMIT:-60}"
out="${OUT:-${TMPDIR:-/tmp}/boardsat-figures}"
if [ -z "${BOARDSAT:-}" ]; then
    cargo build --release -p boardsat >&2
    BOARDSAT="${CARGO_TARGET_DIR:-target}/release/boardsat"
fi
mkdir -p "$out"

figure() {
    local name="$1"
    shift
    echo "== $name" >&2
    "$BOARDSAT" bench "$@" --cell-time-limit "$limit" \
        -o "$out/$name.md" --plot "$out/$name.svg"
}

run() {
    case "$1" in
    queens-clauses)
        # Sizes do not depend on timing: one run is enough.
        figure queens-clauses queens --n 8,12,16,20,24,28,32 --task first \
            --amo all --formulation lines --solver cadical --runs 1 --plot-y clauses ;;
    queens-count)
        figure queens-count queens --n 8,9,10,11,12 --task count \
            --amo all --formulation lines --solver cadical --runs "$runs" --plot-y time ;;
    domination-gamma)
        figure domination-gamma domination --n 6,7,8,9,10,11,12,13 --task optimum \
            --card all --formulation all --solver cadical --runs "$runs" --plot-y time ;;
    *)
        echo "unknown figure $1 (queens-clauses, queens-count, domination-gamma)" >&2
        exit 2 ;;
    esac
}

if [ "$#" -eq 0 ]; then
    set -- queens-clauses queens-count domination-gamma
fi
for name in "$@"; do
    run "$name"
done
echo "== figures in $out" >&2
