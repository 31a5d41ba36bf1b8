/* rank_share.sh's target: g_mix takes the values 0-19 in turn in the normal
 * run, and only 3 and 7 in the slow run (SHARE_SLOW set).  The slow run's
 * values stay inside the normal run's range, so localisation must find where
 * they are over-represented instead (docs/rank.md, "Localisation").
 * Nothing else may differ between the runs: no argument (argc), no basic
 * loop counter whose deltas follow the machine's speed (the count is in a
 * struct, the walk a pointer), the work in libc (memset). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    struct node *next;
    unsigned mix;
};
struct count {
    long left;
};

volatile unsigned g_mix;
static struct node ring[20];
static char buf[1 << 16];

__attribute__((noinline)) static struct node *make_ring(void)
{
    int slow = getenv("SHARE_SLOW") != NULL;
    for (unsigned t = 0; t < 20; t++) {
        ring[t].mix = slow ? (t & 1 ? 7 : 3) : t;
        ring[t].next = &ring[(t + 1) % 20];
    }
    return ring;
}

int main(int argc, char **argv)
{
    struct count c = {argc > 1 ? atol(argv[1]) : 1000};
    struct node *p = make_ring();
    while (c.left-- > 0) {
        g_mix = p->mix;
        memset(buf, (int)g_mix, sizeof buf); /* MIX */
        p = p->next;
    }
    printf("%d\n", buf[0]);
    return 0;
}
