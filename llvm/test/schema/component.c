// VPROF_COMPONENT=<prefix>[,<prefix>...] keeps only variables declared in
// files under those path prefixes (absolute after normalisation; relative
// prefixes are relative to the compiler's cwd; whole path components).
// RUN: %vprof-cc -O0 -c %s -o %t.all.o -mllvm -vprof-print-schema 2> %t.all.txt
// RUN: FileCheck %s --check-prefixes=MAIN,INNER --input-file=%t.all.txt
//
// Only the header's directory, given with "." and ".." detours.
// RUN: env VPROF_COMPONENT=%S/Inputs/./component/../component/sub \
// RUN:   %vprof-cc -O2 -c %s -o %t.sub.o -mllvm -vprof-print-schema 2> %t.sub.txt
// RUN: FileCheck %s --check-prefixes=INNER,NOMAIN --input-file=%t.sub.txt
//
// A relative prefix, resolved against the compiler's cwd, plus a second one.
// RUN: cd %S && env VPROF_COMPONENT=/nonexistent,component.c \
// RUN:   %vprof-cc -O0 -c %s -o %t.rel.o -mllvm -vprof-print-schema 2> %t.rel.txt
// RUN: FileCheck %s --check-prefixes=MAIN,NOINNER --input-file=%t.rel.txt
//
// A prefix that is only a string prefix ("compon") matches nothing; the
// object still carries an (empty) schema blob.
// RUN: cd %S && env VPROF_COMPONENT=compon \
// RUN:   %vprof-cc -O0 -c %s -o %t.none.o -mllvm -vprof-print-schema 2> %t.none.txt
// RUN: FileCheck %s --check-prefixes=NOMAIN,NOINNER --allow-empty --input-file=%t.none.txt
// RUN: %schema-dump %t.none.o | FileCheck %s --check-prefix=EMPTY
// EMPTY: vprof-schema-blob: entries=0 comp_dir=
// EMPTY-NOT: vprof-schema:

#include "Inputs/component/sub/inner.h"

int component_total;
// MAIN-DAG: fn=#global var=component_total {{.*}}file={{/.*}}/schema/component.c{{$}}
// NOMAIN-NOT: file={{.*}}component.c

int run(const int *v, int n) {
// MAIN-DAG: fn=run var=v {{.*}}tags=args
  return inner_scan(v, n) + component_total;
}
// INNER-DAG: fn=inner_scan var=x {{.*}}tags=loop,cond {{.*}}file={{/.*}}/schema/Inputs/component/sub/inner.h{{$}}
// INNER-DAG: fn=inner_scan var=v {{.*}}tags=cond {{.*}}arg=1 {{.*}}/sub/inner.h
// NOINNER-NOT: inner.h
