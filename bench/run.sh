#!/bin/sh
# Accuracy and overhead of vprof on bench/cases (see bench/README.md):
#   bench/run.sh [--cases a,b,...] [--fast] [--no-overhead] [--build DIR] [--overhead-input normal|slow]
#                [--results DIR] [--work DIR] [--keep] [--recordings K]
# Exit status 1 when a case does not match its truth (the cases are listed).
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/harness/bench.py" "$@"
