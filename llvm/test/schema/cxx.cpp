// C++ through vprof-c++: methods, namespaces (linkage names), references,
// range-for (the IV is clang's artificial __beginN iterator, line 0).
// RUN: %vprof-cxx -O0 -c %s -o %t0.o -mllvm -vprof-print-schema 2> %t0.txt
// RUN: FileCheck %s --input-file=%t0.txt
// RUN: %vprof-cxx -O2 -c %s -o %t2.o -mllvm -vprof-print-schema 2> %t2.txt
// RUN: diff %t0.txt %t2.txt
// RUN: %schema-dump %t2.o | FileCheck %s

namespace store {
long capacity = 64;
// CHECK-DAG: fn=#global var=capacity line=[[@LINE-1]] tags=cond,global kind=sint size=8 pointee=0 arg=0 type="long" file={{/.*}}/schema/cxx.cpp linkage=_ZN5store8capacityE{{$}}

struct Table {
  int rows[8];
  int count(int limit) const {
// CHECK-DAG: fn=count var=limit line=[[@LINE-1]] tags=cond kind=sint size=4 pointee=0 arg=2 {{.*}} linkage=_ZNK5store5Table5countEi{{$}}
    int n = 0;
    for (const int &r : rows)
// CHECK-DAG: fn=count var=__begin{{[0-9]+}} line=0 tags=loop,cond kind=ptr_basic size=8 pointee=4
      if (r > limit)
// The reference is rebound each iteration from __begin: a copy, not an IV.
// CHECK-DAG: fn=count var=r line=[[@LINE-4]] tags=cond kind=ptr_basic size=8 pointee=4 arg=0 type="const int &"
        ++n;
    return n;
  }
};
} // namespace store

int grow(store::Table &t, long want) {
// CHECK-DAG: fn=grow var=t line=[[@LINE-1]] tags=args kind=ptr_other size=8 pointee=0 arg=1 type="store::Table &"
// CHECK-DAG: fn=grow var=want line=[[@LINE-2]] tags=cond,args kind=sint size=8 {{.*}} linkage=_Z4growRN5store5TableEl{{$}}
  if (want > store::capacity)
    return -1;
  return t.count(static_cast<int>(want));
}
