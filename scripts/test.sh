#!/usr/bin/env bash
# Runs the whole test suite: formatting, clippy, the pure-Rust build,
# every test of the workspace (unit, conformance, OEIS, CLI end-to-end,
# corpus, external solvers, proofs), and the Python package's tests.
#
# The external-solver tests use Debian's cadical, minisat, picosat and
# cryptominisat5, and CBC (coinor-cbc) for the LP files of `dimacs --format
# lp`; the engine tests (crates/cli/tests/engines.rs) GNU parallel. When
# they are missing and this runs as root with apt, they are installed;
# otherwise those tests fail with a message saying what to install (or set
# BOARDSAT_SKIP_EXTERNAL=1 to skip them, visibly).
#
# The Slurm engine's tests run on a one-node Slurm that
# scripts/slurm-local.sh installs (slurm-wlm, munge) and starts; where it
# cannot (no root, no apt-get), BOARDSAT_SKIP_SLURM=1 skips them, said
# here and by each test.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for binary in cadical minisat picosat cryptominisat5 cbc parallel; do
  command -v "$binary" >/dev/null 2>&1 || missing+=("$binary")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing external programs for the tests: ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cadical minisat picosat cryptominisat coinor-cbc parallel >/dev/null
  else
    echo "== external programs missing: ${missing[*]} (apt-get install cadical minisat picosat cryptominisat coinor-cbc parallel)" >&2
  fi
fi

echo "== a one-node Slurm for the engine tests (scripts/slurm-local.sh)" >&2
start=$SECONDS
if slurm=$(scripts/slurm-local.sh start); then
  eval "$slurm"
  echo "== Slurm answers ($SLURM_CONF), set up in $((SECONDS - start)) s" >&2
else
  export BOARDSAT_SKIP_SLURM=1
  echo "== no Slurm (it needs root and apt-get to install and start): the Slurm engine's tests are SKIPPED" >&2
fi

echo "== cargo fmt --check" >&2
cargo fmt --all --check
echo "== cargo clippy" >&2
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== pure-Rust build (no CaDiCaL)" >&2
cargo check --workspace --no-default-features --locked
echo "== cargo test" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
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
# test binary, and the Python suite's closing line.
totals=$(grep -E '^(test result:|python:)' "$log")
passed=$(grep -Eo '[0-9]+ passed' <<<"$totals" | awk '{s += $1} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed' <<<"$totals" | awk '{s += $1} END {print s + 0}')
echo "$passed passed, $failed failed"
[ "$status" = 0 ] && [ "$python_status" = 0 ]
