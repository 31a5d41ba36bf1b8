#!/usr/bin/env bash
# C++ exceptions thrown through probed loops and a recursive function
# (vprof-c++): same output; the unwinder is libgcc's, not the runtime's.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc exceptions progs/exceptions.cc
stress_compare scan ./exceptions
stress_profile_ok rec/rec.vprof
stress_loop_ran scan
stress_pass
