// Setup calls made again (docs/redundancy.md, "Setup calls made again"): a
// loop that opens, compiles or loads again in every iteration what an
// earlier iteration opened.  The unit's signature is the call's strings (up
// to their NUL; a null pointer reads as "") and its integer arguments, not
// its pointers' addresses, and it is sampled 1 call in 16.
//   append_each():  fopen/fputs/fclose of the same file for every record:
//                   redundant.
//   probe_names():  fopen of a different name in every iteration (each
//                   fails): the strings differ, not redundant.
//   match_each():   regcomp of the same pattern for every line: redundant.
//   compile_into(): regcomp of the same pattern into a different regex_t
//                   in every iteration: still redundant (the address of the
//                   regex_t is no part of what is compiled).
//   compile_new():  regcomp of a new pattern in every iteration: not.
//   self_handle():  dlopen(NULL): a null string, hashed as "", redundant,
//                   and no crash.
//   open_flags():   open() of the same path with flags that alternate
//                   between two values: two distinct calls, redundant.
// Setup calls in a helper that is not inlined, lifted to the loop's call
// of it when they run on every call and their arguments are the helper's
// parameters or constants:
//   append_via():   calls write_record(path, i), whose fopen(path, "a")
//                   runs on every call: a unit at the call, redundant.
//   append_cached(): calls write_cached(path, i), which opens its file on
//                   its first call only: no unit.
//   append_named(): calls write_numbered(i), whose path it builds itself:
//                   no unit (the caller cannot know it).
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=append_each,probe_names,match_each,compile_into,compile_new,self_handle,open_flags,append_via,append_cached,append_named %t %t.missing | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=STATIC
// Eight setup-call units, one of them lifted (append_cached and append_named
// have none).
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | grep -cE ' setup-call( |$)' | FileCheck %s --check-prefix=UNITS
// UNITS: {{^8$}}
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | grep -c 'via=' | FileCheck %s --check-prefix=LIFTED
// LIFTED: {{^1$}}
// Without the units nothing is said of the calls.
// RUN: %vprof-cc -O2 %s -o %t.off -mllvm -vprof-repeated-calls=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t3.vprof VPROF_LOOP_FUNCTIONS=append_each,match_each %t.off %t.missing
// RUN: %redundancy-report %t.off %t3.vprof | FileCheck %s --check-prefix=OFF
// OFF-NOT: calls of
#include <dlfcn.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int append_each(const char *path, int n) {
  int ok = 0;
  for (int i = 0; i < n; i++) {
    FILE *f = fopen(path, "a");
    if (!f)
      continue;
    ok += fprintf(f, "record %d\n", i) > 0;
    fclose(f);
  }
  return ok;
}
// CHECK: setup calls of fopen at line [[@LINE-8]] in loop {{.*}} sources=0
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=1{{$}}
// STATIC: vprof-sources: fopen setup-calls.c:[[@LINE-10]]:{{[0-9]+}} sources=0 {{.*}}repeated-call-unit setup-call

__attribute__((noinline)) int probe_names(const char *base, int n) {
  char name[256];
  int found = 0;
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s.%d", base, i);
    FILE *f = fopen(name, "r");
    if (f) {
      found++;
      fclose(f);
    }
  }
  return found;
}
// CHECK: setup calls of fopen at line [[@LINE-8]] in loop
// CHECK-NEXT: repeated calls: no rate=1.00

static const char *lines[] = {"user1@host3.example.org", "admin@host2.example.org",
                              "user77@host5.example.org", "guest@host1.example.org"};

__attribute__((noinline)) int match_each(const char *pattern, int n) {
  int hits = 0;
  for (int i = 0; i < n; i++) {
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
      continue;
    hits += regexec(&re, lines[i & 3], 0, NULL, 0) == 0;
    regfree(&re);
  }
  return hits;
}
// CHECK: setup calls of regcomp at line [[@LINE-7]] in loop {{.*}} sources=0
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=1{{$}}
// STATIC: vprof-sources: regcomp setup-calls.c:[[@LINE-9]]:{{[0-9]+}} sources=0 {{.*}}setup-call

__attribute__((noinline)) int compile_into(regex_t *res, int n) {
  int ok = 0;
  for (int i = 0; i < n; i++)
    ok += regcomp(&res[i], "a+b", REG_NOSUB) == 0;
  return ok;
}
// CHECK: setup calls of regcomp at line [[@LINE-3]] in loop
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=1{{$}}

__attribute__((noinline)) int compile_new(int n) {
  char pat[64];
  int ok = 0;
  for (int i = 0; i < n; i++) {
    regex_t re;
    snprintf(pat, sizeof pat, "^x%dy$", i);
    if (regcomp(&re, pat, REG_NOSUB) == 0) {
      ok++;
      regfree(&re);
    }
  }
  return ok;
}
// CHECK: setup calls of regcomp at line [[@LINE-7]] in loop
// CHECK-NEXT: repeated calls: no rate=1.00

__attribute__((noinline)) int self_handle(int n) {
  int ok = 0;
  for (int i = 0; i < n; i++) {
    void *h = dlopen(NULL, RTLD_LAZY);
    if (h) {
      ok++;
      dlclose(h);
    }
  }
  return ok;
}
// CHECK: setup calls of dlopen at line [[@LINE-8]] in loop
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=1{{$}}

__attribute__((noinline)) int open_flags(const char *path, int n) {
  int ok = 0;
  for (int i = 0; i < n; i++) {
    int fd = open(path, (i & 1) ? O_RDONLY : O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      ok++;
      close(fd);
    }
  }
  return ok;
}
// CHECK: setup calls of open at line [[@LINE-8]] in loop {{.*}} sources=1
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct={{[12]$}}
// STATIC: vprof-sources: open setup-calls.c:[[@LINE-10]]:{{[0-9]+}} sources=1 {{.*}}setup-call

__attribute__((noinline)) static int write_record(const char *path, int i) {
  FILE *f = fopen(path, "a");
  if (!f)
    return 0;
  int ok = fprintf(f, "record %d\n", i) > 0;
  fclose(f);
  return ok;
}

__attribute__((noinline)) int append_via(const char *path, int n) {
  int ok = 0;
  for (int i = 0; i < n; i++)
    ok += write_record(path, i);
  return ok;
}
// CHECK: setup calls of fopen at line [[@LINE-3]] in loop {{.*}} sources=0 via=write_record:{{[0-9]+}}{{$}}
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=1{{$}}
// STATIC: vprof-sources: fopen setup-calls.c:[[@LINE-5]]:{{[0-9]+}} sources=0 {{.*}}setup-call via=write_record

static FILE *cached;
__attribute__((noinline)) static int write_cached(const char *path, int i) {
  if (!cached)
    cached = fopen(path, "a");
  return cached && fprintf(cached, "record %d\n", i) > 0;
}

__attribute__((noinline)) int append_cached(const char *path, int n) {
  int ok = 0;
  for (int i = 0; i < n; i++)
    ok += write_cached(path, i);
  return ok;
}

__attribute__((noinline)) static int write_numbered(int i) {
  char path[64];
  snprintf(path, sizeof path, "/nonexistent/log.%d", i & 7);
  FILE *f = fopen(path, "a");
  if (!f)
    return 0;
  fclose(f);
  return 1;
}

__attribute__((noinline)) int append_named(int n) {
  int ok = 0;
  for (int i = 0; i < n; i++)
    ok += write_numbered(i);
  return ok;
}

int main(int argc, char **argv) {
  const char *missing = argc > 1 ? argv[1] : "/nonexistent/setup-calls";
  int n = 2000;
  regex_t *res = malloc(n * sizeof *res);
  if (!res)
    return 1;
  int a = append_each("/dev/null", n);
  int b = probe_names(missing, n);
  int c = match_each("^user[0-9]+@host(1|3|5)\\.", n);
  int d = compile_into(res, n);
  for (int i = 0; i < d; i++)
    regfree(&res[i]);
  free(res);
  int e = compile_new(n);
  int f = self_handle(n);
  int g = open_flags("/dev/null", n);
  int h = append_via("/dev/null", n);
  int k = append_cached("/dev/null", n);
  int l = append_named(n);
  printf("%d %d %d %d %d %d %d %d %d %d\n", a, b, c, d, e, f, g, h, k, l);
  return 0;
}
// OUT: 2000 0 1000 2000 2000 2000 2000 2000 2000 0
