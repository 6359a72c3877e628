#!/bin/bash
# Fake solver: dies of a segmentation fault.
echo "about to crash" >&2
kill -SEGV $$
