/* Test input: a binary whose ".vprof.schema" blob claims 1,000 entries in a
 * 48-byte blob (schema version 2).  vp_index_build must refuse it with a message naming the
 * section offset, not read past the section. */
#include <stdint.h>
#include "../../include/vprof/format.h"

__attribute__((section(".vprof.schema"), used, aligned(8)))
static const struct vp_schema_header bad = {
    .magic = VP_SCHEMA_MAGIC,
    .version = VP_SCHEMA_VERSION,
    .header_size = sizeof(struct vp_schema_header),
    .total_size = 48,
    .entry_count = 1000,
    .strings_offset = 40,
    .strings_size = 8,
    .entry_size = sizeof(struct vp_schema_entry),
};
__attribute__((section(".vprof.schema"), used, aligned(8)))
static const uint64_t tail[2];

int main(void) { return 0; }
