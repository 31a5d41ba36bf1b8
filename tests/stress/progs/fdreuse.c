/* fdreuse.c - a daemon-style target: closes every descriptor above 2, then
 * opens input and output files on fds 3..10 and works through
 * a few call levels whose frames lie on different pages, never touching
 * the files; at the end it reports each file's offset and size.  Under
 * libunwind the runtime's caller walk validated stack addresses through a
 * pipe opened before the close: the reads and writes went to these files
 * (an input's offset moved, bytes of stack in an output, one closed). */
#define _GNU_SOURCE
#include "common.h"
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

__attribute__((noinline)) static long deep(int d, long n)
{
    volatile char pad[3000 + 1000 * (d & 3)]; /* frames on different pages */
    pad[0] = (char)d;
    if (d == 0)
        return hot(n) + pad[0];
    long r = deep(d - 1, n) + d + pad[0];
    __asm__ volatile("" ::: "memory");
    return r;
}

static void report(const char *name, int fd)
{
    struct stat a, b;
    int same = fstat(fd, &a) == 0 && stat(name, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev;
    printf("%s fd %d same_file %d offset %ld size %ld\n", name, fd, same,
           (long)lseek(fd, 0, SEEK_CUR), same ? (long)a.st_size : -1L);
}

int main(void)
{
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    int w = open("in.txt", O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (w < 0 || write(w, "0123456789abcdef", 16) != 16)
        return 9;
    close(w);
    /* fds 3..10, alternating input and output: whatever numbers the
       runtime's descriptors had (a test harness may leave some open below
       them), one of these files now has it */
    char out_name[4][16];
    int in[4], out[4];
    for (int i = 0; i < 4; i++) {
        snprintf(out_name[i], sizeof out_name[i], "out%d.txt", i);
        in[i] = open("in.txt", O_RDWR); /* read-write: a stray write or read */
        out[i] = open(out_name[i], O_CREAT | O_TRUNC | O_RDWR, 0644); /* shows */
    }
    long sum = 0;
    for (int r = 0; r < 300; r++)
        sum += deep(r % 9, 40000);
    printf("sum %ld\n", sum);
    for (int i = 0; i < 4; i++) {
        report("in.txt", in[i]);
        report(out_name[i], out[i]);
    }
    char buf[17] = {0};
    printf("in.txt reads '%s'\n", pread(in[0], buf, 16, 0) == 16 ? buf : "?");
    return 0;
}
