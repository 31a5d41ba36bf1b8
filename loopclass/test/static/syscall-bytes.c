// A direct read/write-like system call with a constant count of a few
// bytes in every iteration is marked with that count
// (VP_SITEF_SYSCALL_BYTES, docs/loopclass.md "A system call per few
// bytes"): copying a file one byte per read and per write.  Not marked: a
// count that is not a constant, a count over 64, a call on some iterations
// only.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -D_FORTIFY_SOURCE=2 -c %s -o %t3.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

#include <sys/socket.h>
#include <unistd.h>

long bytewise(int in, int out) {
  long n = 0;
  char c;
  while (read(in, &c, 1) == 1) {
    if (write(out, &c, 1) != 1)
      return -1;
    n++;
  }
  return n;
}
// CHECK: vprof-loop: bytewise syscall-bytes.c:[[#@LINE-7]]:3 kind=loop
// CHECK-DAG: vprof-loop-site: [[#@LINE-8]]:{{[0-9]+}} external body {{read|__read_chk}}{{.*}} syscall-bytes=1
// CHECK-DAG: vprof-loop-site: [[#@LINE-8]]:{{[0-9]+}} external body write{{.*}} syscall-bytes=1

int records(int s, const int *v, int n) {
  int sent = 0;
  for (int i = 0; i < n; i++)
    sent += send(s, &v[i], sizeof v[i], 0) > 0;
  return sent;
}
// CHECK: vprof-loop: records syscall-bytes.c:[[#@LINE-4]]:3 kind=loop
// CHECK: vprof-loop-site: [[#@LINE-4]]:{{[0-9]+}} external body send{{.*}} syscall-bytes=4

int blocks(int in, int out, char *buf, int n) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    r = read(in, buf, 4096);
    write(out, buf, (size_t)r);
  }
  return r;
}
// CHECK: vprof-loop: blocks syscall-bytes.c:[[#@LINE-6]]:3 kind=loop
// CHECK-NOT: syscall-bytes=
// CHECK: vprof-loop: sometimes

int sometimes(int out, const char *s, int n) {
  int w = 0;
  for (int i = 0; i < n; i++)
    if (s[i] == '\n')
      w += write(out, &s[i], 1);
  return w;
}
// CHECK-NOT: syscall-bytes=
