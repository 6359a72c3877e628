#!/usr/bin/env bash
# boardsat against its peers (OR-Tools CP-SAT and CP solver, PySAT with
# CaDiCaL, clasp, the Ganak model counter) and against itself with the
# published queen-domination encoding, on this machine, interleaved; see
# scripts/peers/compare.py.
#
#   scripts/bench-peers.sh --quick             # smoke test: small sizes, one run
#   scripts/bench-peers.sh                     # the issue's full size lists, 3 runs
#   scripts/bench-peers.sh --tasks count --count-sizes 8..12 --time-limit 30
#   scripts/bench-peers.sh --tasks count,mds --peers ganak,count-dimacs   # #SAT vs blocking clauses
#
# Sets up scripts/.venv (python-sat, ortools, pyganak) on first use, installs Debian's
# clasp when run as root with apt and it is missing, and builds the release
# binary unless BOARDSAT points at one. The table goes to stdout, progress to
# stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=scripts/.venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pysat, ortools, pyganak' 2>/dev/null; then
    echo "setting up $venv (python-sat, ortools, pyganak)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip >&2
    "$venv/bin/pip" install --quiet python-sat ortools pyganak >&2
fi

if ! command -v clasp >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing clasp" >&2
        apt-get update -qq >&2 && apt-get install -y -qq clasp >&2
    else
        echo "clasp is missing (apt-get install clasp); running without it" >&2
        set -- --peers cpsat,cp,pysat,ganak,published,count-dimacs "$@"
    fi
fi

if [ -z "${BOARDSAT:-}" ]; then
    cargo build --release -p boardsat >&2
    target="${CARGO_TARGET_DIR:-target}"
    BOARDSAT="$target/release/boardsat"
fi

exec "$venv/bin/python" scripts/peers/compare.py --boardsat "$BOARDSAT" "$@"
