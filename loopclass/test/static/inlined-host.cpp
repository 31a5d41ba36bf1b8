// Loops and inlining (docs/loopclass.md, "Loop positions" and "Inlined
// copies").
// 1. `while (in.next(r))` at -O2: the optimiser drops the loop's llvm.loop
//    node, and LLVM's fallback position is the first line of the inlined
//    next().  The loop also holds main's own code (its body), so it is
//    main's loop, at the call.
// 2. A helper's loop inlined into two functions is two loops, each with the
//    function whose code holds it (the table's host).
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s -D#CRUNCH=%(line+24) -D#NEXT=%(line+16) -D#MAIN=%(line+57)
// RUN: %loopclass-report --table %t.o | FileCheck %s --check-prefix=TABLE -D#CRUNCH=%(line+23) -D#NEXT=%(line+15) -D#MAIN=%(line+56)
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct Input {
  size_t n, payload, i = 0;
  uint64_t s = 7;
  bool next(uint64_t &r, std::string &arena) {
    if (i == n)
      return false;
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    r = s >> 17;
    if (arena.size() < 65536 + payload)
      for (size_t k = 0; k < payload; ++k) // NEXT
        arena.push_back(static_cast<char>('a' + (s >> (k % 50)) % 26));
    ++i;
    return true;
  }
};

static uint64_t crunch(uint64_t v, int rounds) {
  for (int i = 0; i < rounds; ++i)
    v = (v ^ (v >> 31)) * 0x7fb5d329728ea185ULL + static_cast<uint64_t>(i);
  return v;
}
// CHECK-DAG: vprof-loop: crunch inlined-host.cpp:[[#CRUNCH]]:3 kind=loop depth=2
// CHECK-DAG: vprof-loop: crunch inlined-host.cpp:[[#CRUNCH]]:3 kind=loop depth=2

uint64_t fast(const uint64_t *v, size_t n) {
  uint64_t h = 0;
  for (size_t k = 0; k < n; ++k)
    h += crunch(v[k], 400);
  return h;
}

uint64_t slow(const uint64_t *v, size_t n) {
  uint64_t h = 0;
  for (size_t k = 0; k < n; ++k)
    h ^= crunch(v[k], 40);
  return h;
}

void flush(std::vector<uint64_t> &v);
static void add(std::vector<uint64_t> &run, uint64_t r) {
  run.push_back(r);
  if (run.size() >= 64)
    flush(run);
}

int main(int argc, char **argv) {
  Input in{static_cast<size_t>(argc) * 1000, 8};
  std::string arena;
  std::vector<uint64_t> run;
  uint64_t r;
  while (in.next(r, arena)) add(run, r);
  std::printf("%zu %zu\n", run.size(), arena.size());
  return 0;
}
// CHECK-DAG: vprof-loop: main inlined-host.cpp:[[#MAIN]]:13 kind=loop depth=1
// CHECK-DAG: vprof-loop: next inlined-host.cpp:[[#NEXT]]:7 kind=loop depth=2

// TABLE-DAG: crunch linkage=_ZL6crunchmi {{.*}}inlined-host.cpp:[[#CRUNCH]]:3 {{.*}} inlined-into=_Z4fastPKmm{{$}}
// TABLE-DAG: crunch linkage=_ZL6crunchmi {{.*}}inlined-host.cpp:[[#CRUNCH]]:3 {{.*}} inlined-into=_Z4slowPKmm{{$}}
// TABLE-DAG: main linkage=main {{.*}}inlined-host.cpp:[[#MAIN]]:13 end=[[#MAIN]] {{.*}} sites={{[0-9]+$}}
