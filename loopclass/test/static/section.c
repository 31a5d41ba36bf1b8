// The .vprof.loops section survives linking (llvm.compiler.used), holds the
// absolute normalised file name, and a corrupt table gives a clear error.
// RUN: rm -rf %t && mkdir -p %t/sub && cp %s %t/sub/section.c && cd %t
// RUN: %vprof-cc -O1 ./sub/../sub/section.c -o %t/bin
// RUN: llvm-readobj --sections %t/bin | FileCheck %s --check-prefix=SEC
// RUN: %loopclass-report --table %t/bin | FileCheck %s -DDIR=%t
// RUN: %python -c "import sys; b=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(b.replace(b'VPLP\x02\x00', b'VPLP\x09\x00', 1))" %t/bin %t/bad
// RUN: not %loopclass-report --table %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %loopclass-report --table %t/missing 2>&1 | FileCheck %s --check-prefix=MISSING

// SEC: Name: .vprof.loops
// CHECK: loop 0 count_odd linkage=count_odd [[DIR]]/sub/section.c:[[@LINE+5]]:3
// BAD: loopclass-report: {{.*}}bad(.vprof.loops): offset 0: unsupported loop table version 9
// MISSING: loopclass-report: {{.*}}missing: offset 0: No such file or directory
int count_odd(const int *a, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += a[i] & 1;
  return c;
}
int main(int argc, char **argv) { return count_odd((const int *)argv, argc) > 100; }
