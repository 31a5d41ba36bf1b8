/*
 * mysql27287_xmlparent -- a slice of MySQL's ExtractValue(): a small XML
 * parser (my_xml_parse style callbacks) that flattens a document into an
 * array of nodes, and an XPath evaluator over that array.
 *
 * Modelled on MySQL bug 27287 (LDoctor Table 3: root cause 0*1? + cross-loop,
 * developers changed the data structure; LDoctor additionally suggested
 * memoization).  The node array does not store parent links, so the XPath
 * child axis finds the parent of node i by scanning backwards for the nearest
 * node one level up.  For a wide document (thousands of siblings under one
 * element) every scan walks back over all previous siblings, and consecutive
 * scans walk nearly the same node sequence again.  The fix records the parent
 * index while parsing.
 *
 * usage: mysql27287_xmlparent NSECTIONS ITEMS_PER_SECTION NQUERIES SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

enum { MY_XML_NODE_TAG = 1, MY_XML_NODE_ATTR = 2, MY_XML_NODE_TEXT = 3 };

typedef struct MY_XML_NODE {
    uint32_t level;
    uint32_t type;
    const char *beg;     /* name or text */
    uint32_t len;
    uint32_t tagend;     /* filled when the element is closed */
} MY_XML_NODE;

typedef struct {
    MY_XML_NODE *nodes;
    uint32_t n, cap;
    uint32_t level;
    uint32_t pos[64];    /* open element at each level */
} MY_XML_USER_DATA;

typedef struct { char *buf; size_t len, cap; } String;

static void str_append(String *s, const char *p, size_t n)
{
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->buf = realloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    s->buf[s->len] = 0;
}

static uint64_t rs;
static uint32_t rnd(void) { rs ^= rs >> 12; rs ^= rs << 25; rs ^= rs >> 27; return (uint32_t)((rs * 2685821657736338717ull) >> 32); }

/* ---- generate the user's document ----------------------------------- */
static void gen_document(String *doc, uint32_t nsections, uint32_t per_section)
{
    char tmp[128];
    str_append(doc, "<catalog>", 9);
    for (uint32_t s = 0; s < nsections; s++) {
        str_append(doc, "<section>", 9);
        for (uint32_t i = 0; i < per_section; i++) {
            int n = snprintf(tmp, sizeof tmp, "<item id=\"%u\"><price>%u</price></item>",
                             s * per_section + i, 1 + rnd() % 9999);
            str_append(doc, tmp, (size_t)n);
        }
        str_append(doc, "</section>", 10);
    }
    str_append(doc, "</catalog>", 10);
}

/* ---- strings/xml.c style parser with callbacks ---------------------- */
static void xml_add(MY_XML_USER_DATA *d, uint32_t type, const char *b, uint32_t len)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 1024;
        d->nodes = realloc(d->nodes, d->cap * sizeof(MY_XML_NODE));
    }
    MY_XML_NODE *nd = &d->nodes[d->n++];
    nd->level = d->level; nd->type = type; nd->beg = b; nd->len = len; nd->tagend = 0;
}

NOINLINE int my_xml_parse(MY_XML_USER_DATA *d, const char *p, const char *end)
{
    while (p < end) { /* HOT LOOP */
        if (*p == '<') {
            p++;
            if (*p == '/') {                       /* end tag */
                while (p < end && *p != '>') p++;
                p++;
                d->level--;
                d->nodes[d->pos[d->level]].tagend = d->n;
                continue;
            }
            const char *name = p;
            while (p < end && *p != ' ' && *p != '>') p++;
            d->pos[d->level] = d->n;
            xml_add(d, MY_XML_NODE_TAG, name, (uint32_t)(p - name));
            d->level++;
            while (p < end && *p == ' ') {           /* attributes */
                p++;
                const char *an = p;
                while (*p != '=') p++;
                xml_add(d, MY_XML_NODE_ATTR, an, (uint32_t)(p - an));
                p += 2;
                const char *av = p;
                while (*p != '"') p++;
                d->level++;
                xml_add(d, MY_XML_NODE_TEXT, av, (uint32_t)(p - av));
                d->level--;
                p++;
            }
            p++;                                   /* '>' */
        } else {
            const char *t = p;
            while (p < end && *p != '<') p++;
            xml_add(d, MY_XML_NODE_TEXT, t, (uint32_t)(p - t));
        }
    }
    return 0;
}

/* ---- item_xmlfunc.cc: parent lookup without parent links ------------- */
NOINLINE int xml_parent_of(const MY_XML_NODE *nodes, int i)
{
    uint32_t want = nodes[i].level - 1;
    for (int j = i - 1; j >= 0; j--) { /* ROOT-CAUSE LOOP */
        if (nodes[j].level == want && nodes[j].type == MY_XML_NODE_TAG)
            return j;
    }
    return -1;
}

static int name_eq(const MY_XML_NODE *n, const char *s)
{
    size_t l = strlen(s);
    return n->len == l && memcmp(n->beg, s, l) == 0;
}

/* Evaluate  //PARENT/item/price  : child axis checks the parent of each item */
NOINLINE uint64_t xpath_sum_prices(const MY_XML_USER_DATA *d, const char *parent_name)
{
    uint64_t sum = 0, matched = 0;
    for (uint32_t i = 0; i < d->n; i++) {
        const MY_XML_NODE *nd = &d->nodes[i];
        if (nd->type != MY_XML_NODE_TAG || !name_eq(nd, "item"))
            continue;
        int p = xml_parent_of(d->nodes, (int)i);
        if (p < 0 || !name_eq(&d->nodes[p], parent_name))
            continue;
        matched++;
        for (uint32_t k = i + 1; k < nd->tagend; k++) {
            if (d->nodes[k].type == MY_XML_NODE_TAG && name_eq(&d->nodes[k], "price"))
                sum += (uint64_t)strtoul(d->nodes[k + 1].beg, NULL, 10);
        }
    }
    return sum * 1000003u + matched;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NSECTIONS ITEMS_PER_SECTION NQUERIES SEED\n", argv[0]);
        return 2;
    }
    uint32_t nsections = (uint32_t)atoi(argv[1]);
    uint32_t per = (uint32_t)atoi(argv[2]);
    int nq = atoi(argv[3]);
    rs = 88172645463325252ull ^ (uint64_t)atoll(argv[4]);

    String doc = {0};
    gen_document(&doc, nsections, per);
    uint64_t h = 0;
    for (int q = 0; q < nq; q++) {
        /* ExtractValue(doc, '//section/item/price'): parse, then evaluate */
        MY_XML_USER_DATA d = {0};
        my_xml_parse(&d, doc.buf, doc.buf + doc.len);
        h = h * 31 + xpath_sum_prices(&d, "section");
        free(d.nodes);
    }
    printf("doc_bytes=%zu queries=%d result=%016llx\n", doc.len, nq, (unsigned long long)h);
    return 0;
}
