// Included by inlined-site.c: a callee whose stores are on lines 12-13 of
// this file once inlined.
extern int hits;
extern int last_hit;

static inline __attribute__((always_inline)) void note_hit(int i) {
  // padding lines, so that the store's line here is not a line of the
  // loop in inlined-site.c
  //
  //
  //
  hits++;
  last_hit = i;
}
