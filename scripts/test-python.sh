#!/usr/bin/env bash
# Builds and installs the Python package (pip install ./python, as a user
# would) into a virtual environment, with pytest and PySAT, and runs
# python/tests. The environment is python/.venv (gitignored; set
# BOARDSAT_VENV to use another); the package is rebuilt and reinstalled on
# every run. Ends with one line "python: N passed, M failed, K skipped".
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${BOARDSAT_VENV:-python/.venv}
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  echo "== creating $venv" >&2
  "$python" -m venv "$venv"
fi
venv=$(realpath "$venv")
echo "== pip install ./python (builds the extension with cargo, release profile)" >&2
start=$(date +%s)
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./python
echo "== built and installed in $(( $(date +%s) - start )) s" >&2
"$venv/bin/python" -m pip install --quiet -r python/tests/requirements.txt

# The command-line binary, for the tests that compare Python with it.
echo "== cargo build -p boardsat (the binary the parity tests run)" >&2
cargo build --quiet --locked -p boardsat
export BOARDSAT_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/boardsat"

echo "== pytest python/tests" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
# From python/tests, so that `import boardsat` is the installed package.
(cd python/tests && "$venv/bin/python" -m pytest -q -p no:cacheprovider .) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# pytest's last line, e.g. "130 passed, 2 failed, 1 skipped, 1 error in 9.1s".
summary=$(tail -n 1 "$log")
count() { { grep -Eo "[0-9]+ ($1)" <<<"$summary" || true; } | awk '{s += $1} END {print s + 0}'; }
echo "python: $(count passed) passed, $(count 'failed|errors?') failed, $(count skipped) skipped"
exit "$status"
