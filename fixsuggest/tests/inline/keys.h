/* The key comparison lookup() calls, inlined into its loop (fixsuggest.inline). */
#include <stddef.h>

static inline __attribute__((always_inline)) int key_equal(const char *a, const char *b, size_t n)
{
    for (size_t k = 0; k < n; k++) /* KEY-LOOP */
        if (a[k] != b[k])
            return 0;
    return 1;
}
