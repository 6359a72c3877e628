#!/bin/bash
# Fake solver: never answers. Not `exec`: the orphaned sleep keeps the
# output files open, and the caller must not wait for it.
sleep 60
