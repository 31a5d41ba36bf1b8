/* iobatch/bytewise.c - fixsuggest.iobatch: copies FILE to /dev/null one
 * byte per read and per write (MODE 1): two system calls per byte, whose
 * fixed cost is the loop's time: batching ("A system call per few bytes").
 * MODE 2 copies in blocks of 4096 bytes: no such finding.
 *
 *   bytewise FILE MODE */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) long copy_bytes(int in, int out)
{
    long n = 0;
    char c;
    while (read(in, &c, 1) == 1) { /* BYTE-LOOP */
        if (write(out, &c, 1) != 1)
            return -1;
        n++;
    }
    return n;
}

__attribute__((noinline)) long copy_blocks(int in, int out)
{
    static char buf[4096];
    long n = 0;
    ssize_t r;
    while ((r = read(in, buf, sizeof buf)) > 0) { /* BLOCK-LOOP */
        if (write(out, buf, (size_t)r) != r)
            return -1;
        n += r;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int in = open(argv[1], O_RDONLY), out = open("/dev/null", O_WRONLY);
    if (in < 0 || out < 0)
        return 1;
    long n = atoi(argv[2]) == 1 ? copy_bytes(in, out) : copy_blocks(in, out);
    printf("%ld\n", n);
    return n < 0;
}
