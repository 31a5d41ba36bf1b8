// End to end: one loop run over several objects in turn, as a server runs
// the same scan over its rooms or connections.  Each message is appended to
// one of four rooms chosen at random, and the room's whole history is then
// scanned again for marks: every scan repeats the last scan of the same
// room, which is seldom the scan just before (that one, three times in
// four, was of another room).  Paired only with the next instance, about a
// quarter of the pairs repeat and the loop is not flagged; the pair rule
// also compares the second instance with the instances recorded before it
// on the thread (docs/redundancy.md, "Pair rule"), and most pairs repeat an
// earlier scan of their room.  Next to it, a checksum of each message's
// fresh random bytes is not redundant against any instance.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=count_marks,checksum VPROF_RED_INSTANCE_RATE=4 %t 4 6000
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// CHECK: loop count_marks:[[#@LINE+4]]
// CHECK: cross-loop: yes rate={{0\.[6-9][0-9]|1\.00}} {{.*}} by-earlier={{[1-9][0-9]*}} {{.*}} fix=memoization
__attribute__((noinline)) int count_marks(const char *buf, int len) {
  int n = 0;
  for (int i = 0; i < len; i++)
    n += buf[i] == '@';
  return n;
}

// CHECK: loop checksum:[[#@LINE+4]]
// CHECK: cross-loop: no {{.*}} redundant=0 {{.*}} by-earlier=0
__attribute__((noinline)) unsigned checksum(const unsigned char *m, int len) {
  unsigned h = 2166136261u;
  for (int i = 0; i < len; i++)
    h = (h ^ m[i]) * 16777619u;
  return h;
}

static unsigned rs = 2463534242u;
static unsigned rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 17;
  rs ^= rs << 5;
  return rs;
}

struct room { char *buf; int len, marks; };

int main(int argc, char **argv) {
  int nrooms = argc > 1 ? atoi(argv[1]) : 4, msgs = argc > 2 ? atoi(argv[2]) : 6000;
  struct room *rooms = calloc((size_t)nrooms, sizeof *rooms);
  for (int r = 0; r < nrooms; r++)
    rooms[r].buf = malloc((size_t)msgs * 16 + 1);
  unsigned sum = 0;
  for (int m = 0; m < msgs; m++) {
    unsigned char msg[16];
    for (int k = 0; k < 16; k++)
      msg[k] = (unsigned char)rnd();
    sum += checksum(msg, 16);
    struct room *r = &rooms[rnd() % (unsigned)nrooms];
    for (int k = 0; k < 16; k++)
      r->buf[r->len++] = msg[k] % 61 == 0 ? '@' : (char)('a' + msg[k] % 26);
    r->marks = count_marks(r->buf, r->len);
  }
  int marks = 0;
  for (int r = 0; r < nrooms; r++)
    marks += rooms[r].marks;
  printf("marks=%d sum=%u\n", marks, sum);
  return 0;
}
