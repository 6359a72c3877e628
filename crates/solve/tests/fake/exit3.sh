#!/bin/bash
# Fake solver: fails with exit code 3 and no status.
echo "error: cannot parse $1" >&2
exit 3
