// A program that unloads a plugin, loads another and forks (a server
// reloading its modules, then starting workers) must find its data intact
// in the child.  The first plugin's loop is recorded, so the runtime knows
// the address of its probe slots, in the plugin's initial-exec TLS; after
// dlclose, glibc gives that static TLS space to the second plugin's
// thread-local data.  The runtime's fork handler used to clear two flags
// through every slot pointer the thread had: in the child, 8 bytes of the
// second plugin's data were zeroed (docs/redundancy.md, "Threads").
// RUN: %vprof-cc -O1 -shared -fPIC %S/Inputs/fork-plugin-a.c -o %t.a.so
// RUN: clang-14 -O1 -shared -fPIC %S/Inputs/fork-plugin-b.c -o %t.b.so
// RUN: %vprof-cc -O1 %s -o %t -ldl
// RUN: %t %t.a.so %t.b.so | FileCheck %s
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.1.vprof VPROF_LOOP_FUNCTIONS=plugin_scan VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t %t.a.so %t.b.so | FileCheck %s
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.2.vprof VPROF_LOOP_FUNCTIONS=plugin_scan %t %t.a.so %t.b.so | FileCheck %s
// CHECK: child: 0 bytes of the plugin's thread-local data damaged
// CHECK: parent: 0 damaged, child exited 0
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  static long a[1000];
  for (int i = 0; i < 1000; i++)
    a[i] = i;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  long (*scan)(const long *, int) = (long (*)(const long *, int))dlsym(h, "plugin_scan");
  long s = 0;
  for (int k = 0; k < 200; k++)
    s += scan(a, 1000);
  dlclose(h);
  void *b = dlopen(argv[2], RTLD_NOW);
  if (!b) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  void (*fill)(void) = (void (*)(void))dlsym(b, "plugin_fill");
  int (*damaged)(void) = (int (*)(void))dlsym(b, "plugin_damaged");
  fill();
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    int n = damaged();
    printf("child: %d bytes of the plugin's thread-local data damaged\n", n);
    fflush(stdout);
    _exit(n != 0);
  }
  int st = 0;
  waitpid(p, &st, 0);
  printf("parent: %d damaged, child exited %d (sum %ld)\n", damaged(), WEXITSTATUS(st), s);
  return 0;
}
