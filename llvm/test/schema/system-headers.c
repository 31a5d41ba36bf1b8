// Variables declared in system headers (glibc's inline wrappers such as
// atol's `__nptr` at -O2) are the C library's, not the program's: they stay
// out of the schema unless VPROF_COMPONENT names the system directory.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-schema 2> %t.txt
// RUN: FileCheck %s --input-file=%t.txt --implicit-check-not=/usr/include
// RUN: env VPROF_COMPONENT=/usr/include,%s %vprof-cc -O2 -c %s -o %t.sys.o \
// RUN:   -mllvm -vprof-print-schema 2> %t.sys.txt
// RUN: FileCheck %s --check-prefix=SYS --input-file=%t.sys.txt

#include <stdlib.h>

long parse_all(char **args, int n) {
  long total = 0;
  for (int i = 0; i < n; i++)
    total += atol(args[i]);
  return total;
}
// CHECK-DAG: fn=parse_all var=i {{.*}}tags=loop,cond
// SYS-DAG: fn=atol var=__nptr {{.*}}file=/usr/include/stdlib.h
