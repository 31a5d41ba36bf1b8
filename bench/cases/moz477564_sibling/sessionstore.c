/*
 * moz477564_sibling -- a slice of Firefox's session store: before the
 * browser saves a session, it collects the values of every modified form
 * field of every open page, keyed by an XPath generated for the field, and
 * serializes them.
 *
 * Modelled on Mozilla477564 (LDoctor Figure 4 / Table 3: cross-loop
 * redundancy, fixed by memoization).  sss_xph_generate() builds the XPath of
 * a node as  parent-path/prefix:name[k]  where k is 1 + the number of
 * previous siblings with the same local name and namespace (and name
 * attribute), counted by walking previousSibling every time:
 *
 *     for (let n = aNode; (n = n.previousSibling); )
 *         if (n.localName == aNode.localName && n.namespaceURI == ... )
 *             count++;
 *
 * The outer collection loop visits the siblings in document order, so each
 * instance of the counting loop repeats the walk of the instance before it
 * plus one node: quadratic in the number of sibling fields.  Pages with many
 * small forms are fine; a page with one form of thousands of inputs (a
 * spreadsheet-like admin page) makes saving the session freeze the browser.
 * The fix saves the count per node and adds one to the count of the nearest
 * previous same-name sibling.
 *
 * The JavaScript is re-implemented in C (as LDoctor did); atoms are interned
 * strings compared by pointer, as in Gecko.
 *
 * usage: moz477564_sibling NFORMS FIELDS_PER_FORM NSAVES SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

enum { NS_XHTML = 1, NS_XUL = 2, NS_SVG = 3 };

typedef struct Node {
    const char *localName;     /* atom */
    int namespaceURI;
    const char *name;          /* name="" attribute or NULL */
    struct Node *parent, *firstChild, *lastChild, *previousSibling, *nextSibling;
    char value[24];            /* form field value */
    int modified;
} Node;

typedef struct { char *buf; size_t len, cap; } StrBuf;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

/* atoms */
static const char *const A_html = "html", *const A_body = "body", *const A_div = "div",
                         *const A_form = "form", *const A_input = "input", *const A_textarea = "textarea",
                         *const A_select = "select", *const A_p = "p", *const A_table = "table";

static Node *node_pool; static size_t node_used, node_cap;

static Node *new_node(const char *atom, int ns, Node *parent)
{
    if (node_used == node_cap) { fprintf(stderr, "node pool exhausted\n"); exit(1); }
    Node *n = &node_pool[node_used++];
    memset(n, 0, sizeof *n);
    n->localName = atom; n->namespaceURI = ns; n->parent = parent;
    if (parent) {
        n->previousSibling = parent->lastChild;
        if (parent->lastChild) parent->lastChild->nextSibling = n; else parent->firstChild = n;
        parent->lastChild = n;
    }
    return n;
}

static void sb_put(StrBuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        while (b->len + n + 1 > b->cap) b->cap = b->cap ? b->cap * 2 : 256;
        b->buf = realloc(b->buf, b->cap);
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = 0;
}
static void sb_puts(StrBuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static int same_name_attr(const char *a, const char *b)
{
    if (a == b) return 1;
    if (!a || !b) return 0;
    while (*a && *a == *b) { a++; b++; }
    return *a == *b;
}

/* nsSessionStore.js: sss_xph_generate(aNode) */
NOINLINE void xph_generate(const Node *aNode, StrBuf *out)
{
    if (!aNode->parent) { sb_puts(out, "/"); return; }
    xph_generate(aNode->parent, out);
    const char *nName = aNode->name;
    int count = 0;
    for (const Node *n = aNode; (n = n->previousSibling); ) /* ROOT-CAUSE LOOP */
        if (n->localName == aNode->localName && n->namespaceURI == aNode->namespaceURI &&
            (!nName || same_name_attr(n->name, nName)))
            count++;
    char tmp[96];
    int k = snprintf(tmp, sizeof tmp, "%s%s:%s%s%s[%d]", out->len > 1 ? "/" : "",
                     aNode->namespaceURI == NS_XHTML ? "xhtml" : "xul", aNode->localName,
                     nName ? "[@name=" : "", nName ? "*]" : "", count + 1);
    sb_put(out, tmp, (size_t)k);
}

/* escape a value for the JSON session file (necessary work) */
NOINLINE void json_escape(StrBuf *out, const char *s)
{
    char tmp[160]; size_t k = 0;
    tmp[k++] = '"';
    for (; *s && k < sizeof tmp - 8; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { tmp[k++] = '\\'; tmp[k++] = (char)c; }
        else if (c < 0x20) k += (size_t)snprintf(tmp + k, 8, "\\u%04x", c);
        else tmp[k++] = (char)c;
    }
    tmp[k++] = '"';
    sb_put(out, tmp, k);
}

/* nsSessionStore: _collectFormDataForFrame -- walk the document, generate an
   XPath for each modified field and append "xpath":value to the session */
NOINLINE size_t collect_form_data(Node *root, StrBuf *session)
{
    size_t fields = 0;
    StrBuf xp = { 0, 0, 0 };
    Node *n = root;
    while (n) {
        if ((n->localName == A_input || n->localName == A_textarea || n->localName == A_select) && n->modified) {
            xp.len = 0;
            xph_generate(n, &xp);
            json_escape(session, xp.buf);
            sb_puts(session, ":");
            json_escape(session, n->value);
            sb_puts(session, ",");
            fields++;
        }
        if (n->firstChild) n = n->firstChild;          /* pre-order walk */
        else {
            while (n && !n->nextSibling) n = n->parent;
            if (n) n = n->nextSibling;
        }
    }
    free(xp.buf);
    return fields;
}

/* session file compression before writing sessionstore.js: an LZ77-style
   match finder with a hash head table (necessary work); returns the number
   of literals+matches folded into a checksum */
NOINLINE uint64_t session_compress(const StrBuf *s, uint32_t *head, size_t hsize)
{
    uint64_t h = 0xcbf29ce484222325ull;
    memset(head, 0xff, hsize * sizeof *head);
    for (size_t i = 0; i + 4 <= s->len; i++) { /* HOT LOOP */
        uint32_t v;
        memcpy(&v, s->buf + i, 4);
        uint32_t k = (v * 2654435761u) >> 18;
        uint32_t prev = head[k % hsize];
        head[k % hsize] = (uint32_t)i;
        int len = 0;
        if (prev != 0xffffffffu)
            while (len < 32 && i + (size_t)len < s->len && s->buf[prev + (size_t)len] == s->buf[i + (size_t)len]) len++;
        h = (h ^ (uint64_t)(len >= 4 ? (uint64_t)len << 8 | (i - prev) : (uint8_t)s->buf[i])) * 0x100000001b3ull;
    }
    return h;
}

static void build_page(Node *body, int nforms, int per_form)
{
    static const char *const names[] = { "q", "email", "qty", NULL, NULL, "comment" };
    for (int f = 0; f < nforms; f++) {
        Node *div = new_node(A_div, NS_XHTML, body);
        new_node(A_p, NS_XHTML, div);
        Node *form = new_node(A_form, NS_XHTML, div);
        Node *tbl = new_node(A_table, NS_XHTML, form);
        (void)tbl;
        for (int i = 0; i < per_form; i++) {
            uint32_t r = rnd();
            const char *atom = (r % 8 == 0) ? A_textarea : (r % 8 == 1) ? A_select : A_input;
            Node *in = new_node(atom, NS_XHTML, form);
            in->name = names[(r >> 4) % 6];
            in->modified = (r >> 8) % 4 != 0;
            snprintf(in->value, sizeof in->value, "v%u\"%u", r % 1000, (r >> 12) % 97);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NFORMS FIELDS_PER_FORM NSAVES SEED\n", argv[0]);
        return 2;
    }
    int nforms = atoi(argv[1]), per = atoi(argv[2]), nsaves = atoi(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    node_cap = (size_t)nforms * ((size_t)per + 4) + 8;
    node_pool = malloc(node_cap * sizeof(Node));
    Node *html = new_node(A_html, NS_XHTML, NULL);
    Node *body = new_node(A_body, NS_XHTML, html);
    build_page(body, nforms, per);
    size_t fields = 0;
    uint64_t h = 0;
    StrBuf session = { 0, 0, 0 };
    uint32_t *head = malloc(sizeof(uint32_t) << 14);
    for (int s = 0; s < nsaves; s++) {            /* the session is saved every 15 s */
        if (s)                                    /* the user kept typing in between */
            for (size_t i = 0; i < node_used; i++)
                if (node_pool[i].modified) snprintf(node_pool[i].value, sizeof node_pool[i].value, "v%u", rnd() % 100000);
        session.len = 0;
        sb_puts(&session, "{\"formdata\":{");
        fields += collect_form_data(html, &session);
        sb_puts(&session, "}}");
        h = h * 31 + session_compress(&session, head, (size_t)1 << 14);
    }
    printf("nodes=%zu fields=%zu bytes=%zu hash=%016llx\n", node_used, fields, session.len,
           (unsigned long long)h);
    return 0;
}
