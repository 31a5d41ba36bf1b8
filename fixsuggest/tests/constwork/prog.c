/* A CRC-32 that builds its table again on every call.  Fast on a few large
   records (the table is built once per record), slow on many small ones:
   the 256-entry table costs more than the 16 bytes it checksums.  The
   table is a function's static, so its source name ("table") is not the
   IR's ("crc32_buf.table"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static uint32_t crc32_buf(const unsigned char *p, size_t len)
{
    static uint32_t table[256];
    for (uint32_t n = 0; n < 256; n++) { /* TABLE-LOOP */
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < len; i++) /* CRC-LOOP */
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

int main(int argc, char **argv)
{
    size_t nrec = argc > 1 ? strtoul(argv[1], 0, 10) : 1000;
    size_t reclen = argc > 2 ? strtoul(argv[2], 0, 10) : 4096;
    unsigned char *buf = malloc(reclen ? reclen : 1);
    unsigned long long seed = 1;
    uint32_t acc = 0;
    if (!buf)
        return 1;
    for (size_t r = 0; r < nrec; r++) {
        for (size_t i = 0; i < reclen; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (unsigned char)(seed >> 56);
        }
        acc ^= crc32_buf(buf, reclen);
    }
    printf("%08x\n", acc);
    free(buf);
    return 0;
}
