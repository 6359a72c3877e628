#!/usr/bin/env bash
# boardsat against its peers (OR-Tools CP-SAT and CP solver, PySAT with
# CaDiCaL, clasp, the Ganak model counter, and the native solvers on
# boardsat's OPB, WCNF and LP exports: Exact, RC2, HiGHS, CBC) and against
# itself with the published queen-domination encoding, on this machine,
# interleaved; see scripts/peers/compare.py.
#
#   scripts/bench-peers.sh --quick             # smoke test: small sizes, one run
#   scripts/bench-peers.sh                     # the issue's full size lists, 3 runs
#   scripts/bench-peers.sh --tasks count --count-sizes 8..12 --time-limit 30
#   scripts/bench-peers.sh --tasks count,mds --peers ganak,count-dimacs   # #SAT vs blocking clauses
#   scripts/bench-peers.sh --tasks gamma,iqueens,knights,first --peers exact,rc2,highs,cbc \
#       --plot native.svg                  # CNF encodings vs native reasoning (issue 25)
#
# Sets up scripts/.venv (python-sat, ortools, pyganak, exact, highspy) on first
# use, installs Debian's clasp and coinor-cbc when run as root with apt and
# they are missing, and builds the release binary unless BOARDSAT points at
# one. The table goes to stdout, progress to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=scripts/.venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pysat, ortools, pyganak, exact, highspy' 2>/dev/null; then
    echo "setting up $venv (python-sat, ortools, pyganak, exact, highspy)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip >&2
    "$venv/bin/pip" install --quiet python-sat ortools pyganak exact highspy >&2
fi

all=cpsat,cp,pysat,clasp,ganak,published,count-dimacs,exact,rc2,highs,cbc
peers=$all
for tool in clasp cbc; do
    command -v "$tool" >/dev/null && continue
    package=$tool
    [ "$tool" = cbc ] && package=coinor-cbc
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing $package" >&2
        apt-get update -qq >&2 && apt-get install -y -qq "$package" >&2
    else
        echo "$tool is missing (apt-get install $package); running without it" >&2
        peers=$(sed -e "s/\b$tool\b,\?//" -e 's/,$//' <<<"$peers")
    fi
done
# A --peers given on the command line comes later and wins.
[ "$peers" = "$all" ] || set -- --peers "$peers" "$@"

if [ -z "${BOARDSAT:-}" ]; then
    cargo build --release -p boardsat >&2
    target="${CARGO_TARGET_DIR:-target}"
    BOARDSAT="$target/release/boardsat"
fi

exec "$venv/bin/python" scripts/peers/compare.py --boardsat "$BOARDSAT" "$@"
