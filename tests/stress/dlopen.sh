#!/usr/bin/env bash
# dlopen/dlclose of a vprof-cc library, 120 times from two threads, while
# sampling (the library's loop probes are on under vprof-loop).
source "$(dirname "$0")/lib.sh" "$@"
"$build/bin/vprof-cc" -O1 -shared -fPIC "$src/tests/stress/progs/dlib.c" -o "$work/libstress.so" ||
    stress_fail "cannot build the library"
stress_cc dlopen progs/dlopen.c
stress_compare drive ./dlopen "$work/libstress.so"
stress_profile_ok rec/rec.vprof
stress_pass
