#!/usr/bin/env bash
# Regenerates the committed corpus cnf/*.cnf and cnf/MANIFEST through the CLI.
#
# Each entry: file name, expected status, expected projected model count (on
# the board variables), where that count comes from, and the `boardsat dimacs`
# arguments. Counts come from OEIS or from brute force; the tests recount
# every file with the embedded solver and an external one, and re-verify the
# brute-force entries by brute force (tests in crates/cli/tests/corpus.rs).
#
# Usage: scripts/gen-corpus.sh            (uses target/release/boardsat, building it if needed)
#        BOARDSAT=path/to/boardsat scripts/gen-corpus.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDSAT=${BOARDSAT:-target/release/boardsat}
if [ ! -x "$BOARDSAT" ]; then
  cargo build --release --quiet -p boardsat
fi

entries=()
for amo in pairwise ladder bitwise commander product bimander; do
  for form in lines cardinality; do
    entries+=("queens-8-$amo-$form.cnf SAT 92 A000170 queens 8 --amo $amo --formulation $form")
  done
done
for card in seqcounter totalizer mtotalizer cardnetwork; do
  entries+=("domination-8-k4-$card.cnf UNSAT 0 A075458 domination 8 -k 4 --card $card")
  entries+=("domination-8-k5-$card.cnf SAT 4860 A002564 domination 8 -k 5 --card $card")
done
# The same bounds in the plain formulation (closed-neighbourhood clauses,
# no line variables), for comparison.
entries+=("domination-8-k4-totalizer-cardinality.cnf UNSAT 0 A075458 domination 8 -k 4 --formulation cardinality")
entries+=("domination-8-k5-totalizer-cardinality.cnf SAT 4860 A002564 domination 8 -k 5 --formulation cardinality")
entries+=("independence-6-rook-k6.cnf SAT 720 6! independence 6 --piece rook -k 6")
entries+=("independence-5-bishop-k8.cnf SAT 32 brute-force independence 5 --piece bishop -k 8")
entries+=("independence-4x5-knight-k10.cnf SAT 3 brute-force independence 4 --cols 5 --piece knight -k 10")
entries+=("domination-6-king-k4.cnf SAT 1 brute-force domination 6 --piece king -k 4")
entries+=("domination-6-king-k3.cnf UNSAT 0 brute-force domination 6 --piece king -k 3")
entries+=("independent-domination-5-k3.cnf SAT 16 brute-force domination 5 --independent -k 3")

mkdir -p cnf
rm -f cnf/*.cnf
{
  echo "# file status projected-count source boardsat-dimacs-arguments"
  echo "# Regenerate with scripts/gen-corpus.sh; byte-identical regeneration is tested."
  for entry in "${entries[@]}"; do
    read -r file status count source args <<<"$entry"
    # shellcheck disable=SC2086
    "$BOARDSAT" dimacs $args >"cnf/$file" 2>/dev/null
    echo "$file $status $count $source $args"
  done
} >cnf/MANIFEST
echo "wrote ${#entries[@]} files and cnf/MANIFEST" >&2
