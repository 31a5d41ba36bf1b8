// std::sort as a sort unit (docs/redundancy.md, "Sorts made again"):
// libstdc++'s std::sort is inlined into the loop down to its call of
// std::__introsort_loop(first, last, depth), whose [first, last) is the
// unit's input, last - first bytes.
//  - a vector sorted again after each push_back: a unit (`sort`);
//  - a plain array: a unit;
//  - reverse iterators (first after last as pointers) and a std::deque
//    (iterators of four pointers, passed as several arguments): no unit;
//  - the template's own recursive call of __introsort_loop: no unit.
// RUN: %vprof-cxx -O2 -g -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s
// RUN: %vprof-cxx -O2 -g -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | grep -c 'std::sort.* sort *$' | FileCheck %s --check-prefix=COUNT
#include <algorithm>
#include <deque>
#include <vector>

long board(long n) {
  std::vector<long> v;
  for (long i = 0; i < n; i++) {
    v.push_back(i * 7919 % 1000);
    std::sort(v.begin(), v.end());
  }
  return v[0];
}
// CHECK: vprof-sources: std::sort std-sort.cpp:[[@LINE-4]]:{{[0-9]+}} {{.*}}repeated-call-unit sort

long arrays(long *a, long n, long k) {
  long s = 0;
  for (long i = 0; i < k; i++) {
    a[i % n] = i;
    std::sort(a, a + n);
    s += a[0];
  }
  return s;
}
// CHECK: vprof-sources: std::sort std-sort.cpp:[[@LINE-5]]:{{[0-9]+}} {{.*}}repeated-call-unit sort

long reversed(std::vector<long> &v, long k) {
  long s = 0;
  for (long i = 0; i < k; i++) {
    v[i % v.size()] = i;
    std::sort(v.rbegin(), v.rend());
    s += v[0];
  }
  return s;
}

long queued(std::deque<long> &d, long k) {
  long s = 0;
  for (long i = 0; i < k; i++) {
    d.push_back(i);
    std::sort(d.begin(), d.end());
    s += d[0];
  }
  return s;
}

// Two units: board's and arrays'; none in the library's own code.
// COUNT: 2
// CHECK-NOT: vprof-sources: std::sort stl_algo.h
