// java.lang.String.indexOf (LDoctor Figure 6): the outer loop's result is
// `return i` from inside it.  Its slice must start there (it has sources),
// whether the pass analyses loopclass's simplified clone (default) or the
// original loop, whose exit block is shared with the early returns before
// it (loopclass's probes off: the pass then makes the clone itself).  Both
// give the same sources.
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources -mllvm -vprof-loop-probes=0 2>&1 | FileCheck %s
int indexOf(const char *source, int sourceCount, const char *target,
            int targetCount) {
  if (targetCount == 0)
    return 0;
  char first = target[0];
  int max = sourceCount - targetCount;
  for (int i = 0; i <= max; i++) {
    if (source[i] != first)
      while (++i <= max && source[i] != first)
        ;
    if (i <= max) {
      int j = i + 1;
      int end = j + targetCount - 1;
      for (int k = 1; j < end && source[j] == target[k]; j++, k++)
        ;
      if (j == end)
        return i;
    }
  }
  return -1;
}
// CHECK-LABEL: vprof-sources: indexOf return-inside.c:15:3 sources={{[1-9][0-9]*}} side-effects=0 probed
// The characters compared decide the result, in both variants.
// CHECK-DAG: vprof-source: 16:9 load ci=record cl=record
// CHECK-DAG: vprof-source: 22:34 load ci=record cl=record
// CHECK-DAG: vprof-source: 22:47 load ci=record cl=record
// CHECK-DAG: vprof-source: 13:16 outside ci=pruned-outside cl=once
// CHECK-LABEL: vprof-sources: indexOf return-inside.c:17:7
