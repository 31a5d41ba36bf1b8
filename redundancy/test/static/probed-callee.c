// A loop that only calls a read-only function: LDoctor's 0* (httpd52914's
// worker_wait_for_work).  The callee has a loop, so loopclass gates it and
// gives it a probed clone whose counters write runtime memory; those
// probes are not the callee's effect, so the caller's loop still has no
// side effect and nothing to slice.  (The queue is volatile, as a queue
// filled by another thread would be read: else LLVM deletes the loop.)
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources -mllvm -vprof-print-loops 2>&1 | FileCheck %s
struct queue { volatile int n; volatile int ready[8]; };

__attribute__((noinline)) int has_ready(const struct queue *q) {
  for (int i = 0; i < q->n; i++)
    if (q->ready[i])
      return 1;
  return 0;
}

void wait_for_work(const struct queue *q, unsigned long rounds) {
  for (unsigned long i = 0; i < rounds; i++)
    if (has_ready(q))
      break;
}
// CHECK-DAG: vprof-loop: wait_for_work probed-callee.c:18:3 kind=loop depth=1 class=0* probed sites=0
// CHECK-DAG: vprof-sources: wait_for_work probed-callee.c:18:3 sources=0 side-effects=0 probed
