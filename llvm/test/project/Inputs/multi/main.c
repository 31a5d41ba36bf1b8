#include <stdio.h>
#include <stdlib.h>
#include "list.h"
#include "stats.h"
static int verbose;
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int found[3];
  struct item *list = list_build(n);
  for (int q = 0; q < 3; q++)
    found[q] = list_find(list, q * 6);
  list_free(list);
  if (verbose)
    puts("verbose");
  printf("found %d %d %d sum %ld calls %d\n", found[0], found[1], found[2],
         stats_sum(found, 3), stats_calls);
  return 0;
}
