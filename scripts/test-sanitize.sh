#!/usr/bin/env bash
# Build vprof with AddressSanitizer + UBSan (-DVPROF_SANITIZE=ON, in
# build-asan/) and run the whole test suite against it.  The runtime
# libvprof-rt.so and the pass plugin are not instrumented (they live in
# processes we do not build; see VPROF_SANITIZE in CMakeLists.txt);
# everything else is: vprof-core, loopclass/redundancy C libraries,
# fixsuggest, the commands and their tests.  .ci/run runs this after
# scripts/test.sh.  docs/hardening.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
      -DCMAKE_CXX_COMPILER=clang++-14 -DVPROF_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
# Any report fails the test that triggered it (-fno-sanitize-recover=all,
# halt_on_error); leaks count as errors.  verify_asan_link_order=0: an
# instrumented test program run by `vprof record` gets libvprof-rt.so
# preloaded ahead of the ASan runtime, which is fine for us (the runtime
# intercepts nothing ASan does).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0:verify_asan_link_order=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 600
