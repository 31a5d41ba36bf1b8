/* fixsuggest.workflow: tinyxml2's attribute parse in small.  Each name added
 * is first searched for among those already added (the inner loop, the
 * finding: every search re-reads the list the previous one read), then
 * hashed and appended (the outer loop's own work, under 1 % of the run).
 * usage: dupcheck N */
#include <stdio.h>
#include <stdlib.h>

struct attr {
    unsigned name;
    unsigned long hash;
    struct attr *next;
};

__attribute__((noinline)) static int present(const struct attr *list, unsigned name)
{
    for (const struct attr *a = list; a; a = a->next) /* DUP-LOOP */
        if (a->name == name)
            return 1;
    return 0;
}

__attribute__((noinline)) unsigned long add_all(struct attr *pool, long n)
{
    struct attr *head = NULL, **tail = &head;
    unsigned long dups = 0;
    for (long i = 0; i < n; i++) { /* ADD-LOOP */
        unsigned name = (unsigned)(i * 2654435761u);
        dups += present(head, name);
        unsigned long h = name;
        for (int k = 0; k < 60; k++)
            h = h * 1099511628211ul ^ (h >> 29);
        pool[i] = (struct attr){name, h, NULL};
        *tail = &pool[i];
        tail = &pool[i].next;
    }
    return dups + (head ? head->hash : 0);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    struct attr *pool = calloc((size_t)n, sizeof *pool);
    if (!pool)
        return 1;
    printf("%lu\n", add_all(pool, n));
    free(pool);
    return 0;
}
