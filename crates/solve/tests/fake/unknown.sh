#!/bin/bash
# Fake solver: gives up politely, as a solver at its own limit does.
echo "c no answer within my limits"
echo "s UNKNOWN"
exit 0
