#!/bin/bash
# Fake solver: claims SAT with everything false, whatever the formula.
echo "s SATISFIABLE"
echo "v 0"
exit 10
