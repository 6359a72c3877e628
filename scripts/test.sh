#!/usr/bin/env bash
# Runs the whole test suite: formatting, clippy (with and without
# CaDiCaL), every test of the workspace (unit, conformance, OEIS, CLI
# end-to-end, corpus, external solvers, proofs, the guide's transcripts),
# and the Python package's tests. Its last line is
# "N passed, N failed, N skipped". CONTRIBUTING.md says what it installs
# and how long it takes (about 25 minutes on 2 cores).
#
# The external-solver tests use Debian's cadical, minisat, picosat and
# cryptominisat5, and CBC (coinor-cbc) for the LP files of `dimacs --format
# lp`; the engine tests and the guide's jobs GNU parallel. When they are
# missing and this runs as root with apt, they are installed; otherwise
# those tests fail with a message saying what to install (or set
# BOARDSAT_SKIP_EXTERNAL=1 to skip them: each skip is listed and counted).
#
# The Slurm engine's tests run on a one-node Slurm that
# scripts/slurm-local.sh installs (slurm-wlm, munge) and starts; where it
# cannot (no root, no apt-get), BOARDSAT_SKIP_SLURM=1 skips them, said
# here and counted. The daemons this script started are stopped when it
# ends (it names them); BOARDSAT_KEEP_SLURM=1 leaves them running, and a
# Slurm that answered before the script started is left alone.
#
# The Python tests (scripts/test-python.sh) build the package into
# python/.venv and install pytest, python-sat, mypy, Exact and highspy from
# PyPI (python/tests/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for binary in cadical minisat picosat cryptominisat5 cbc parallel; do
  command -v "$binary" >/dev/null 2>&1 || missing+=("$binary")
done
# scripts/sitting.sh times its sittings with GNU time (Debian's 'time').
[ -x /usr/bin/time ] || missing+=(/usr/bin/time)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing external programs for the tests: ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cadical minisat picosat cryptominisat coinor-cbc parallel time >/dev/null
  else
    echo "== external programs missing: ${missing[*]} (apt-get install cadical minisat picosat cryptominisat coinor-cbc parallel time)" >&2
  fi
fi

# Each skipped test appends a line here (crates/cli/tests/common/skip.rs).
skipped_file=$(mktemp)
log=$(mktemp)
export BOARDSAT_SKIPPED=$skipped_file
stop_slurm=false
cleanup() {
  rm -f "$log" "$skipped_file"
  if $stop_slurm; then
    if [ "${BOARDSAT_KEEP_SLURM:-}" = 1 ]; then
      echo "== the one-node Slurm keeps running (BOARDSAT_KEEP_SLURM=1): 'scripts/slurm-local.sh stop' stops munged, slurmctld and slurmd" >&2
    else
      echo "== stopping the one-node Slurm this script started (BOARDSAT_KEEP_SLURM=1 keeps it)" >&2
      scripts/slurm-local.sh stop || true
    fi
  fi
}
trap cleanup EXIT

echo "== a one-node Slurm for the engine tests (scripts/slurm-local.sh)" >&2
start=$SECONDS
if scripts/slurm-local.sh status 2>/dev/null; then
  # Someone else's Slurm: used, and left running.
  eval "$(scripts/slurm-local.sh start)"
  echo "== Slurm already answers ($SLURM_CONF): it is left running at the end" >&2
elif slurm=$(scripts/slurm-local.sh start); then
  eval "$slurm"
  stop_slurm=true
  echo "== Slurm answers ($SLURM_CONF), set up in $((SECONDS - start)) s" >&2
else
  export BOARDSAT_SKIP_SLURM=1
  echo "== no Slurm (it needs root and apt-get to install and start): the Slurm engine's tests are SKIPPED" >&2
fi

echo "== cargo fmt --check" >&2
cargo fmt --all --check
echo "== cargo clippy" >&2
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo clippy, pure Rust (--no-default-features: no CaDiCaL)" >&2
cargo clippy --workspace --all-targets --locked --no-default-features -- -D warnings
echo "== cargo test" >&2
set +e
# Every test target runs even when one fails, so the closing line counts
# every test.
cargo test --workspace --locked --no-fail-fast 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The Python package, built and installed as a user would, and its pytest
# suite (scripts/test-python.sh ends with "python: N passed, M failed").
echo "== python package" >&2
scripts/test-python.sh 2>&1 | tee -a "$log"
python_status=${PIPESTATUS[0]}
set -e
# One closing line for the whole suite: cargo's "test result:" line per
# test binary, the Python suite's closing line, and the Rust tests that
# skipped themselves (libtest reports them as passed: they are moved from
# passed to skipped, and listed).
totals=$(grep -E '^(test result:|python:)' "$log")
sum() { { grep -Eo "[0-9]+ $1" <<<"$totals" || true; } | awk '{s += $1} END {print s + 0}'; }
rust_skipped=$(wc -l <"$skipped_file")
passed=$(( $(sum passed) - rust_skipped ))
failed=$(sum failed)
skipped=$(( $(sum skipped) + $(sum ignored) + rust_skipped ))
if [ "$rust_skipped" -gt 0 ]; then
  echo "== skipped Rust tests (crate, test: why):" >&2
  sed 's/^/   /' "$skipped_file" >&2
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$status" = 0 ] && [ "$python_status" = 0 ]
