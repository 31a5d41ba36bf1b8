/* Writes numbered records to an unbuffered stream (slow when there are many):
   every fputs goes down to write(2) through five frames of the C library's
   own code.  With "direct" the program calls write(2) itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static int emit(FILE *f, int n, int direct)
{
    char line[64];
    int fd = fileno(f), bad = 0;
    for (int i = 0; i < n; i++) {
        int len = snprintf(line, sizeof line, "record %d\n", i);
        if (direct)
            bad += write(fd, line, (size_t)len) != len; /* DIRECT-LINE */
        else
            bad += fputs(line, f) == EOF; /* STDIO-LINE */
    }
    return bad;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int direct = argc > 2 && strcmp(argv[2], "direct") == 0;
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        return 1;
    setvbuf(f, NULL, _IONBF, 0);
    int bad = emit(f, n, direct);
    fclose(f);
    return bad != 0;
}
