#!/usr/bin/env bash
# One sitting of a long certified run (a count or a solve that takes more
# than one session), recorded the way scripts/result-json.py reads it:
#
#   scripts/sitting.sh DIR count domination 20 --depth 3 --card seqcounter --proof-format binary --proof-compression zstd
#   scripts/sitting.sh DIR count domination 20 --depth 3 --card seqcounter --proof-format binary --proof-compression zstd --resume
#
# DIR is the proof directory (`--proof DIR --json` are added). Sitting K
# (the next number free) writes beside it:
#   DIR.env.K       the binary, its --version line, rustc's, the CPU, cores, kernel, start time, the command
#   DIR.time.K      /usr/bin/time -f "%e %U %S %M" of the sitting (empty if the sitting was killed outright)
#   DIR.json.K      the run's --json report
#   DIR.progress.K  its stderr (progress lines)
# When the run exits 0 it verifies DIR with boardsat's checker and the
# external one: DIR.verify (time -v and verify's output) and DIR.verify.env.
#
#   scripts/sitting.sh --verify DIR
#
# verifies a finished DIR alone, the same way (for a run whose check did
# not fit in the session that finished it). Either check keeps the record
# DIR.record (`verify --record`, when the verifying binary has it): a check
# that is stopped goes on from it the next time, checking only the proofs
# it does not hold; the stopped check's DIR.verify and DIR.verify.env are
# kept as DIR.verify.K and DIR.verify.env.K (the next K free), whose time
# result-json.py adds with --verify-sitting. VERIFIER is the verifying
# binary (default: BOARDSAT).
#
# BOARDSAT is the binary (default: target/release/boardsat, built, then
# copied to boardsat-COMMIT beside DIR, so that rebuilding the tree during a
# run of many sittings never changes the binary that runs them); CHECKER the
# external LRAT checker (default: cake_lpr, built from
# ../shared/peers/cake_lpr beside DIR when it is not there); NICE a niceness
# for the run (default 0). Stop a sitting with SIGINT (kill -INT on the
# boardsat process): the count writes its MANIFEST as "interrupted" and the
# time file is written; resume with the same command and --resume. SIGUSR1
# (binaries that have it: docs/proofs.md) stops it the same way once the
# cubes running are finished, losing none of them.
#
# Exit codes: the run's own when it fails; else verify's (0 verified,
# 1 not verified); 2 bad usage, one line on stderr.
# The body is one function, read whole before it runs: editing this file
# during a sitting (hours) cannot change what the running sitting does next.
set -euo pipefail

main() {
  usage() {
    echo "error: usage: scripts/sitting.sh DIR SUBCOMMAND ARGS... or scripts/sitting.sh --verify DIR (see the head of the script)" >&2
    exit 2
  }
  [ $# -ge 2 ] || usage
  only_verify=false
  if [ "$1" = --verify ]; then
    [ $# -eq 2 ] || usage
    only_verify=true
    shift
  fi
  dir=$(realpath -m "$1"); shift
  parent=$(dirname "$dir")
  [ -d "$parent" ] || { echo "error: $parent is not a directory" >&2; exit 2; }
  top=$(cd "$(dirname "$0")/.." && pwd)
  [ -x /usr/bin/time ] || { echo "error: /usr/bin/time is missing (Debian's package 'time')" >&2; exit 2; }

  if [ -z "${BOARDSAT:-}" ]; then
    (cd "$top" && cargo build --release --locked -p boardsat >&2)
    commit=$("$top/target/release/boardsat" --version | sed -n 's/.*(commit \([0-9a-f]*\(-dirty\)\?\).*/\1/p')
    [ -n "$commit" ] || { echo "error: the binary's --version names no commit" >&2; exit 2; }
    BOARDSAT="$parent/boardsat-$commit"
    [ -x "$BOARDSAT" ] || cp "$top/target/release/boardsat" "$BOARDSAT"
  fi
  [ -x "$BOARDSAT" ] || { echo "error: $BOARDSAT is not an executable" >&2; exit 2; }

  if [ -z "${CHECKER:-}" ]; then
    CHECKER="$parent/cake_lpr"
    if [ ! -x "$CHECKER" ]; then
      peer="$top/../shared/peers/cake_lpr"
      [ -f "$peer/cake_lpr.S" ] || { echo "error: no CHECKER given and no $peer to build cake_lpr from" >&2; exit 2; }
      gcc -O2 "$peer/basis_ffi.c" "$peer/cake_lpr.S" -o "$CHECKER" -std=c99 2> /dev/null
    fi
  fi
  [ -x "$CHECKER" ] || { echo "error: $CHECKER is not an executable" >&2; exit 2; }

  environment() {
    echo "binary: $BOARDSAT"
    "$BOARDSAT" --version
    rustc --version 2> /dev/null || echo "rustc unknown"
    grep -m1 'model name' /proc/cpuinfo
    echo "cores: $(nproc)"
    uname -srm
    echo "start: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  }

  verify_dir() {
    BOARDSAT=${VERIFIER:-$BOARDSAT}
    [ -x "$BOARDSAT" ] || { echo "error: $BOARDSAT is not an executable" >&2; exit 2; }
    record=()
    if "$BOARDSAT" verify --help 2> /dev/null | grep -- '--record' > /dev/null; then
      record=(--record "$dir.record")
    fi
    if [ -e "$dir.verify" ]; then
      j=1
      while [ -e "$dir.verify.$j" ] || [ -e "$dir.verify.env.$j" ]; do j=$((j + 1)); done
      mv "$dir.verify" "$dir.verify.$j"
      [ ! -e "$dir.verify.env" ] || mv "$dir.verify.env" "$dir.verify.env.$j"
      echo "the earlier check's output is kept as $dir.verify.$j" >&2
    fi
    { environment; echo "command: boardsat verify DIR --checker $(basename "$CHECKER")${record:+ --record DIR.record}"; } > "$dir.verify.env"
    status=0
    nice -n "${NICE:-0}" /usr/bin/time -v "$BOARDSAT" verify "$dir" --checker "$CHECKER" "${record[@]}" > "$dir.verify" 2>&1 || status=$?
    grep -i '^verified\|^not verified' "$dir.verify" >&2 || tail -n 1 "$dir.verify" >&2
    exit "$status"
  }

  if "$only_verify"; then
    [ -f "$dir/MANIFEST.json" ] || { echo "error: $dir has no MANIFEST.json (not a proof directory)" >&2; exit 2; }
    echo "verifying $dir with boardsat's checker and $CHECKER (output in $dir.verify)" >&2
    verify_dir
  fi

  k=1
  while [ -e "$dir.env.$k" ]; do k=$((k + 1)); done

  command=(--progress "$@" --proof "$dir" --json)
  { environment; echo "command: boardsat ${command[*]}"; } > "$dir.env.$k"
  echo "sitting $k of $dir: boardsat ${command[*]} (progress in $dir.progress.$k)" >&2
  status=0
  nice -n "${NICE:-0}" /usr/bin/time -f "%e %U %S %M" -o "$dir.time.$k" \
    "$BOARDSAT" "${command[@]}" > "$dir.json.$k" 2> "$dir.progress.$k" || status=$?
  echo "sitting $k ended with exit $status: $(tail -n 1 "$dir.time.$k" 2> /dev/null || true) (wall user system kB)" >&2
  [ "$status" -eq 0 ] || exit "$status"
  verify_dir
}

main "$@"
