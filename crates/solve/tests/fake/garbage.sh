#!/bin/bash
# Fake solver: a status line with an unknown word on line 3.
echo "c fake solver"
echo "c reading $1"
echo "s PROBABLY"
exit 10
