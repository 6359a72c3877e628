#!/bin/bash
# Fake solver: exit code 10 (SAT) but an UNSAT status line.
echo "s UNSATISFIABLE"
exit 10
