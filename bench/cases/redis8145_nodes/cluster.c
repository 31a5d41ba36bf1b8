/*
 * redis8145_nodes -- a slice of Redis Cluster: the node table, slot bitmaps,
 * sds strings, a dict serving GET/SET traffic, and the CLUSTER NODES reply.
 *
 * Modelled on Redis issue 8145 (vProf Table 1 b11: "cluster nodes command is
 * costly in a large cluster", scalability).  clusterGenNodeDescription() walks
 * all 16384 slots for every node to print that node's slot ranges, so the
 * command costs nodes x 16384 bit tests while producing output only at the
 * few range boundaries.  Redis fixed it by computing every node's slot ranges
 * once per command (slot_info_pairs), i.e. memoizing the slot walk.
 *
 * usage: redis8145_nodes NNODES NCOMMANDS NKV_OPS SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define CLUSTER_SLOTS 16384
#define CLUSTER_NAMELEN 40

/* ---- sds ------------------------------------------------------------- */
typedef struct { size_t len, alloc; char buf[]; } sdshdr;
typedef char *sds;
#define SDS_HDR(s) ((sdshdr *)((s) - sizeof(sdshdr)))
static sds sdsempty(void) { sdshdr *h = malloc(sizeof(sdshdr) + 64); h->len = 0; h->alloc = 63; h->buf[0] = 0; return h->buf; }
static size_t sdslen(const sds s) { return SDS_HDR(s)->len; }
static void sdsfree(sds s) { if (s) free(SDS_HDR(s)); }
NOINLINE sds sdscatlen(sds s, const void *t, size_t len)
{
    sdshdr *h = SDS_HDR(s);
    if (h->len + len > h->alloc) {
        size_t na = (h->len + len) * 2;
        h = realloc(h, sizeof(sdshdr) + na + 1);
        h->alloc = na;
    }
    memcpy(h->buf + h->len, t, len);
    h->len += len;
    h->buf[h->len] = 0;
    return h->buf;
}
static sds sdscatint(sds s, long v) { char b[24]; int n = snprintf(b, sizeof b, "%ld", v); return sdscatlen(s, b, (size_t)n); }

/* ---- cluster state --------------------------------------------------- */
typedef struct clusterNode {
    char name[CLUSTER_NAMELEN];
    int flags;
    unsigned char slots[CLUSTER_SLOTS / 8];
    int numslots;
    char ip[46];
    int port;
    long long ping_sent, pong_received;
    uint64_t configEpoch;
} clusterNode;

static struct { clusterNode **nodes; int size; clusterNode *myself; } cluster;

static uint64_t rs;
static uint32_t rnd(void) { rs = rs * 6364136223846793005ull + 1; return (uint32_t)(rs >> 33); }

static int clusterNodeGetSlotBit(clusterNode *n, int slot)
{
    return (n->slots[slot >> 3] >> (slot & 7)) & 1;
}

static void clusterNodeSetSlotBit(clusterNode *n, int slot)
{
    n->slots[slot >> 3] |= (unsigned char)(1 << (slot & 7));
    n->numslots++;
}

/* cluster.c */
NOINLINE sds clusterGenNodeDescription(clusterNode *node)
{
    int j, start;
    sds ci = sdsempty();
    ci = sdscatlen(ci, node->name, CLUSTER_NAMELEN);
    ci = sdscatlen(ci, " ", 1);
    ci = sdscatlen(ci, node->ip, strlen(node->ip));
    ci = sdscatlen(ci, ":", 1);
    ci = sdscatint(ci, node->port);
    ci = sdscatlen(ci, node == cluster.myself ? " myself,master - " : " master - ", node == cluster.myself ? 17 : 10);
    ci = sdscatint(ci, node->ping_sent);
    ci = sdscatlen(ci, " ", 1);
    ci = sdscatint(ci, node->pong_received);
    ci = sdscatlen(ci, " ", 1);
    ci = sdscatint(ci, (long)node->configEpoch);
    ci = sdscatlen(ci, " connected", 10);

    start = -1;
    for (j = 0; j < CLUSTER_SLOTS; j++) { /* ROOT-CAUSE LOOP */
        int bit;
        if ((bit = clusterNodeGetSlotBit(node, j)) != 0) {
            if (start == -1) start = j;
        }
        if (start != -1 && (!bit || j == CLUSTER_SLOTS - 1)) {
            ci = sdscatlen(ci, " ", 1);
            ci = sdscatint(ci, start);
            if (start != j - 1 + (bit ? 1 : 0)) {
                ci = sdscatlen(ci, "-", 1);
                ci = sdscatint(ci, bit ? j : j - 1);
            }
            start = -1;
        }
    }
    return ci;
}

NOINLINE sds clusterGenNodesDescription(void)
{
    sds ci = sdsempty();
    for (int i = 0; i < cluster.size; i++) {
        sds ni = clusterGenNodeDescription(cluster.nodes[i]);
        ci = sdscatlen(ci, ni, sdslen(ni));
        ci = sdscatlen(ci, "\n", 1);
        sdsfree(ni);
    }
    return ci;
}

/* ---- the keyspace: ordinary GET/SET traffic (unrelated hot code) ------ */
typedef struct dictEntry { uint64_t key; uint64_t val; struct dictEntry *next; } dictEntry;
static dictEntry **dict_table; static uint64_t dict_mask;

NOINLINE uint64_t dictGenHashFunction(uint64_t k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 8; i++) { /* HOT LOOP */
        h ^= (k >> (i * 8)) & 0xff;
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

NOINLINE uint64_t processKvCommand(uint64_t key, int is_set, uint64_t val)
{
    uint64_t idx = dictGenHashFunction(key) & dict_mask;
    for (dictEntry *e = dict_table[idx]; e; e = e->next)
        if (e->key == key) { if (is_set) e->val = val; return e->val; }
    if (!is_set) return 0;
    dictEntry *e = malloc(sizeof *e);
    e->key = key; e->val = val; e->next = dict_table[idx]; dict_table[idx] = e;
    return val;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NNODES NCOMMANDS NKV_OPS SEED\n", argv[0]);
        return 2;
    }
    int nnodes = atoi(argv[1]), ncmds = atoi(argv[2]);
    long nkv = atol(argv[3]);
    rs = (uint64_t)atoll(argv[4]) + 1;

    cluster.size = nnodes;
    cluster.nodes = calloc((size_t)nnodes, sizeof(clusterNode *));
    for (int i = 0; i < nnodes; i++) {
        clusterNode *n = calloc(1, sizeof *n);
        for (int k = 0; k < CLUSTER_NAMELEN; k++) n->name[k] = "0123456789abcdef"[rnd() % 16];
        snprintf(n->ip, sizeof n->ip, "10.0.%d.%d", i / 250, i % 250 + 1);
        n->port = 7000 + i;
        n->configEpoch = (uint64_t)i + 1;
        cluster.nodes[i] = n;
    }
    cluster.myself = cluster.nodes[0];
    for (int s = 0; s < CLUSTER_SLOTS; s++)       /* contiguous ranges per master */
        clusterNodeSetSlotBit(cluster.nodes[(long)s * nnodes / CLUSTER_SLOTS], s);

    dict_mask = (1u << 16) - 1;
    dict_table = calloc(dict_mask + 1, sizeof(dictEntry *));
    uint64_t reply_bytes = 0, kvsum = 0;
    long kv_per_cmd = nkv / (ncmds ? ncmds : 1);
    for (int c = 0; c < ncmds; c++) {
        for (long k = 0; k < kv_per_cmd; k++) {
            uint64_t key = rnd() % 50000;
            kvsum += processKvCommand(key, (rnd() & 3) == 0, key * 31 + (uint64_t)k);
        }
        for (int i = 0; i < nnodes; i++) { cluster.nodes[i]->ping_sent += 3; cluster.nodes[i]->pong_received += 5; }
        sds reply = clusterGenNodesDescription();     /* CLUSTER NODES from a client */
        reply_bytes += sdslen(reply);
        sdsfree(reply);
    }
    printf("nodes=%d commands=%d reply_bytes=%llu kvsum=%llu\n", nnodes, ncmds,
           (unsigned long long)reply_bytes, (unsigned long long)kvsum);
    return 0;
}
