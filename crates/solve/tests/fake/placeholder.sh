#!/bin/bash
# Fake minisat-style solver: `placeholder.sh -i <cnf> -o <result>`; answers
# with variable 1 true and everything else false.
[ "$1" = -i ] && [ -f "$2" ] && [ "$3" = -o ] || { echo "bad arguments: $*" >&2; exit 2; }
printf 'SAT\n1 0\n' > "$4"
exit 10
