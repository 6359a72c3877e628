#!/usr/bin/env bash
# The kill loop of crates/cli/tests/kills.rs at length (issue 53): KILLS
# jobs of an exported split (1,000 by default; the test suite kills 100)
# killed with SIGKILL at random instants and at the moments a condition
# shows them inside a step (the prover's temporary, a proof being
# written, pieces being written), each then run again; every time the
# split must merge, verified, to the in-process count and hold nothing of
# the killed run. Ends with the test's line: the kills, the seed, how many
# came while the job ran, by kind.
#
#   scripts/bench-kills.sh [KILLS]
#
# Environment: SEED (BOARDSAT_KILL_SEED: repeat a run's random choices),
# PROFILE (release; "test" runs the test profile's binary, as the suite
# does, without a release build). On 2 shared cores 1,000 kills take about
# 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
export BOARDSAT_KILLS=${1:-1000}
if [ -n "${SEED:-}" ]; then export BOARDSAT_KILL_SEED=$SEED; fi
profile=(--release)
if [ "${PROFILE:-release}" = test ]; then profile=(); fi
set +e
cargo test "${profile[@]}" --locked -p boardsat --test kills a_job_killed -- --nocapture 2>&1 |
  grep -E '^[0-9]+ kills|^test result|panicked|^seed'
status=${PIPESTATUS[0]}
exit "$status"
