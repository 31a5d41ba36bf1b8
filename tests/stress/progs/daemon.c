/* A daemon that double-forks: the middle process exits at once, the
 * grandchild (new session, reparented to init) works and reports through a
 * pipe that the original process reads to EOF. */
#include <sys/wait.h>
#include "common.h"

int main(void)
{
    int p[2];
    if (pipe(p) != 0)
        return 10;
    fflush(stdout);
    pid_t mid = fork();
    if (mid == 0) {
        close(p[0]);
        setsid();
        if (fork() != 0)
            _exit(0); /* the middle process */
        char buf[64];
        int n = snprintf(buf, sizeof buf, "daemon %ld\n", hot(200000));
        ssize_t w = write(p[1], buf, (size_t)n);
        (void)w;
        exit(0);
    }
    close(p[1]);
    int st;
    waitpid(mid, &st, 0);
    char buf[128];
    ssize_t n, got = 0;
    while ((n = read(p[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += n;
    buf[got] = '\0';
    printf("middle-exit %d\n%s", WEXITSTATUS(st), buf);
    return 0;
}
